/**
 * The audit events of a person rather than of one workspace (a sign-in, a sign-out, a password
 * change): recorded in every workspace they belong to, so each workspace's owners see who came in and
 * who was refused. An email with no account has no workspace to record in: nothing is written for it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { type AuditEntry, recordAuditEvents } from '../audit/index.ts';
import { membershipsOf } from './members/members.queries.ts';

export interface PersonEvent {
  user: { id: string; name: string };
  action:
    | 'sign_in.succeeded'
    | 'sign_in.failed'
    | 'sign_in.locked'
    | 'sign_out'
    | 'password.changed'
    | 'sessions.ended'
    | 'email.changed'
    | 'passkey.added'
    | 'passkey.renamed'
    | 'passkey.removed'
    | 'two_factor.enabled'
    | 'two_factor.disabled';
  origin: { address?: string; userAgent?: string };
  at: Date;
  details?: AuditEntry['details'];
  /** The person's workspaces when the caller has just read them (a sign-in), saving a query. */
  workspaceIds?: readonly string[];
}

export async function recordPersonEvent(db: Kysely<Database>, event: PersonEvent): Promise<void> {
  const workspaceIds = event.workspaceIds ?? (await membershipsOf(db, event.user.id)).map((membership) => membership.workspace_id);
  await recordAuditEvents(
    db,
    workspaceIds.map((workspaceId) => ({
      workspaceId,
      at: event.at,
      actor: { kind: 'user', id: event.user.id, name: event.user.name },
      action: event.action,
      object: { kind: 'user', id: event.user.id },
      origin: { transport: 'dashboard', ...event.origin },
      ...(event.details ? { details: event.details } : {}),
    })),
  );
}
