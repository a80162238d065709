/**
 * The audit events of a person rather than of one workspace (a sign-in, a sign-out, a password
 * change): recorded in every workspace they belong to, so each workspace's owners see who came in and
 * who was refused. An email with no account has no workspace to record in: nothing is written for it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { type AuditEntry, recordAuditEvent } from '../audit/index.ts';
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
}

export async function recordPersonEvent(db: Kysely<Database>, event: PersonEvent): Promise<void> {
  for (const membership of await membershipsOf(db, event.user.id)) {
    await recordAuditEvent(db, {
      workspaceId: membership.workspace_id,
      at: event.at,
      actor: { kind: 'user', id: event.user.id, name: event.user.name },
      action: event.action,
      object: { kind: 'user', id: event.user.id },
      origin: { transport: 'dashboard', ...event.origin },
      ...(event.details ? { details: event.details } : {}),
    });
  }
}
