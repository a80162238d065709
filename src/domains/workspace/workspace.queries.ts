/**
 * Workspace rows: creating one with its first admin key and its channel's slug (CLI and first start),
 * reading one with usage.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlanName } from '../../core/plans.ts';
import { TIER_SCOPES } from '../../core/scopes.ts';
import type { Database, WorkspaceRow } from '../../db/tables/index.ts';
import { countActiveCredentials, mintCredential } from '../api-keys/index.ts';
import { claimFirstSlug } from '../channel/index.ts';
import { videoUsage } from '../videos/index.ts';

export const DEFAULT_ASSISTANT_GUIDANCE =
  'This workspace hosts marketing and sales videos. Prefer reading before writing: list or search first, then act on ' +
  'the ids you found. Archive instead of deleting. Ask before changing more than a few items at once.';

export async function createWorkspace(
  db: Kysely<Database>,
  input: { name: string; plan: PlanName; now: Date },
): Promise<{ workspace: WorkspaceRow; apiKey: string }> {
  return db.transaction().execute(async (trx) => {
    const workspace = await trx
      .insertInto('workspaces')
      .values({
        id: randomUUID(),
        name: input.name,
        plan: input.plan,
        assistant_guidance: DEFAULT_ASSISTANT_GUIDANCE,
        created_at: input.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await claimFirstSlug(trx, workspace.id, input.name, input.now);
    const { token } = await mintCredential(trx, {
      workspaceId: workspace.id,
      name: 'Admin key',
      kind: 'api_key',
      scopes: [...TIER_SCOPES.admin],
      expiresAt: null,
      createdBy: null,
      now: input.now,
    });
    return { workspace, apiKey: token };
  });
}

export async function countWorkspaces(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function getWorkspaceUsage(db: Kysely<Database>, workspaceId: string, now: Date) {
  const [workspace, videos, apiKeys] = await Promise.all([
    db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirstOrThrow(),
    videoUsage(db, workspaceId),
    countActiveCredentials(db, workspaceId, now),
  ]);
  return {
    workspace,
    usage: {
      videos: videos.total,
      videos_ready: videos.ready,
      videos_archived: videos.archived,
      storage_bytes: videos.bytes,
      api_keys: apiKeys,
    },
  };
}

/** The text the workspace wrote for AI assistants (empty when none). */
export async function getAssistantGuidance(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const row = await db.selectFrom('workspaces').select('assistant_guidance').where('id', '=', workspaceId).executeTakeFirst();
  return row?.assistant_guidance ?? '';
}

/** The workspace's Stripe signing secret, sealed; undefined for an unknown workspace, null when none is set. */
export async function sealedStripeSecret(db: Kysely<Database>, workspaceId: string): Promise<string | null | undefined> {
  const row = await db.selectFrom('workspaces').select('stripe_signing_secret').where('id', '=', workspaceId).executeTakeFirst();
  return row?.stripe_signing_secret;
}
