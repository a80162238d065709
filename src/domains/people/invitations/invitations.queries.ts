/**
 * Invitations: a one-time link (7 days) that makes its holder a member with the invited role, creating
 * their account when they have none. Only the link secret's SHA-256 is stored. One open invitation per
 * address and workspace: inviting again replaces the earlier link. The first-start owner link is an
 * invitation with no address (its page asks for one).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, InvitationRow, MemberRole } from '../../../db/tables/index.ts';
import { hashSecret, newSecret } from '../sessions/session-tokens.ts';
import { canonicalEmail } from '../users/users.queries.ts';

export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

export interface NewInvitation {
  workspaceId: string;
  email: string | null;
  role: MemberRole;
  invitedByUser: string | null;
  invitedByCredential: string | null;
  now: Date;
}

export async function createInvitation(
  db: Kysely<Database>,
  invitation: NewInvitation,
): Promise<{ invitation: InvitationRow; secret: string }> {
  const email = invitation.email === null ? null : canonicalEmail(invitation.email);
  if (email !== null) {
    await db
      .updateTable('invitations')
      .set({ revoked_at: invitation.now })
      .where('workspace_id', '=', invitation.workspaceId)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }
  const { secret, hash } = newSecret();
  const row = await db
    .insertInto('invitations')
    .values({
      id: randomUUID(),
      workspace_id: invitation.workspaceId,
      email,
      role: invitation.role,
      token_hash: hash,
      invited_by_user: invitation.invitedByUser,
      invited_by_credential: invitation.invitedByCredential,
      created_at: invitation.now,
      expires_at: new Date(invitation.now.getTime() + INVITATION_LIFETIME_MS),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { invitation: row, secret };
}

/** The open invitation a link's secret names: not accepted, not revoked, not expired. `lock` holds it for accepting. */
export async function openInvitation(db: Kysely<Database>, secret: string, now: Date, lock = false): Promise<InvitationRow | undefined> {
  let query = db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', hashSecret(secret))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function markInvitationAccepted(db: Kysely<Database>, invitationId: string, userId: string, now: Date): Promise<void> {
  await db.updateTable('invitations').set({ accepted_at: now, accepted_by: userId }).where('id', '=', invitationId).execute();
}

export async function listOpenInvitations(db: Kysely<Database>, workspaceId: string, now: Date): Promise<InvitationRow[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .orderBy('id')
    .limit(500)
    .execute();
}

export async function findOpenInvitation(
  db: Kysely<Database>,
  workspaceId: string,
  invitationId: string,
  now: Date,
): Promise<InvitationRow | undefined> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', invitationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function revokeInvitation(db: Kysely<Database>, invitationId: string, now: Date): Promise<void> {
  await db.updateTable('invitations').set({ revoked_at: now }).where('id', '=', invitationId).execute();
}

export async function changeInvitationRole(db: Kysely<Database>, invitationId: string, role: MemberRole): Promise<InvitationRow> {
  return db.updateTable('invitations').set({ role }).where('id', '=', invitationId).returningAll().executeTakeFirstOrThrow();
}
