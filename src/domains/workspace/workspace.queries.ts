/**
 * Workspace rows: inserting one (src/create-workspace.ts gives it its slug and first key), reading
 * one with usage.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PlanName } from '../../core/plans.ts';
import type { Database, WorkspaceRow } from '../../db/tables/index.ts';

export const DEFAULT_ASSISTANT_GUIDANCE =
  'This workspace hosts marketing and sales videos. Prefer reading before writing: list or search first, then act on ' +
  'the ids you found. Archive instead of deleting. Ask before changing more than a few items at once.';

/** Inserts a workspace row; the caller's transaction also gives it a slug and a key (src/create-workspace.ts). */
export async function insertWorkspace(db: Kysely<Database>, input: { name: string; plan: PlanName; now: Date }): Promise<WorkspaceRow> {
  return db
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
}

export async function countWorkspaces(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
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
