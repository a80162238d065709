/**
 * Creating a workspace, the one act that spans areas: its row (workspace), its channel's first slug
 * (channel), its first admin key (api-keys) and, when asked, the link that makes its first owner
 * (people), in one transaction, with the audit events of each (audit). It lives above the areas so the
 * workspace area, which every other area reads, depends on none of them.
 */
import type { Kysely } from 'kysely';
import type { PlanName } from './core/plans.ts';
import { TIER_SCOPES } from './core/scopes.ts';
import type { Database, WorkspaceRow } from './db/tables/index.ts';
import { mintCredential } from './domains/api-keys/index.ts';
import { type AuditEntry, recordAuditEvent } from './domains/audit/index.ts';
import { claimFirstSlug } from './domains/channel/index.ts';
import { inviteOwner } from './domains/people/index.ts';
import { insertWorkspace } from './domains/workspace/index.ts';

/** Who creates it, for the audit log: the command line says so; by default the service itself (the first start). */
export interface WorkspaceCreator {
  actor: AuditEntry['actor'];
  origin: AuditEntry['origin'];
}

export const SERVICE_CREATOR: WorkspaceCreator = { actor: { kind: 'system', id: null, name: 'Cuepoint' }, origin: null };

export async function createWorkspace(
  db: Kysely<Database>,
  input: {
    name: string;
    plan: PlanName;
    now: Date;
    by?: WorkspaceCreator;
    /** Also make the first owner's link: for this email (mailed too), or for whoever opens it (null). */
    owner?: { email: string | null; invitationUrl(secret: string): string };
  },
): Promise<{ workspace: WorkspaceRow; apiKey: string; ownerInviteUrl?: string }> {
  const { actor, origin } = input.by ?? SERVICE_CREATOR;
  return db.transaction().execute(async (trx) => {
    const workspace = await insertWorkspace(trx, input);
    await claimFirstSlug(trx, workspace.id, input.name, input.now);
    const { key, token } = await mintCredential(trx, {
      workspaceId: workspace.id,
      name: 'Admin key',
      kind: 'api_key',
      scopes: [...TIER_SCOPES.admin],
      expiresAt: null,
      createdBy: null,
      now: input.now,
    });
    const at = input.now;
    await recordAuditEvent(trx, {
      workspaceId: workspace.id,
      at,
      actor,
      action: 'create_workspace',
      object: { kind: 'workspace', id: workspace.id },
      origin,
      details: { plan: workspace.plan },
    });
    await recordAuditEvent(trx, {
      workspaceId: workspace.id,
      at,
      actor,
      action: 'create_api_key',
      object: { kind: 'api_key', id: key.key_id },
      origin,
      details: { kind: key.kind, tier: key.tier, scopes: key.scopes.join(' ') },
    });
    if (!input.owner) return { workspace, apiKey: token };
    const { url } = await inviteOwner(trx, {
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      email: input.owner.email,
      invitationUrl: input.owner.invitationUrl,
      now: input.now,
    });
    await recordAuditEvent(trx, {
      workspaceId: workspace.id,
      at,
      actor,
      action: 'member.invited',
      object: null,
      origin,
      details: { role: 'owner' },
    });
    return { workspace, apiKey: token, ownerInviteUrl: url };
  });
}
