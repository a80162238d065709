/**
 * Accepting an invitation (and the first owner's link): the holder becomes a member with the invited
 * role. A person already signed in joins with their account; anyone else gets an account made from
 * the name and password they chose. Run in one transaction holding the invitation row, so a link
 * used twice at once makes one member and one account.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import type { Database, InvitationRow } from '../../../db/tables/index.ts';
import { recordAuditEvent } from '../../audit/index.ts';
import { addMember } from '../members/members.queries.ts';
import { canonicalEmail, findUser, findUserByEmailHeld, insertUser } from '../users/users.queries.ts';
import { markInvitationAccepted, openInvitation } from './invitations.queries.ts';

export type Acceptance =
  /** The person signed in (their session's user) joins with their own account. */
  | { kind: 'signed_in'; userId: string }
  /** A new account: the email is the invitation's, or the one typed when the link had none. */
  | { kind: 'new_account'; email: string; name: string; passwordHash: string };

export interface Accepted {
  userId: string;
  workspaceId: string;
  invitation: InvitationRow;
}

/** Refusals a person can act on; the page shows them beside the form. */
export class InvitationRefused extends AppError {}

export async function acceptInvitation(
  db: Kysely<Database>,
  secret: string,
  acceptance: Acceptance,
  now: Date,
  origin: { address?: string; userAgent?: string } = {},
): Promise<Accepted> {
  const invitation = await openInvitation(db, secret, now, true);
  if (!invitation)
    throw new InvitationRefused('not_found', 'This invitation link has expired, was already used, or was withdrawn. Ask for a new one.');
  let userId: string;
  let name: string;
  if (acceptance.kind === 'signed_in') {
    const user = await findUser(db, acceptance.userId);
    if (!user) throw new InvitationRefused('unauthorized', 'Sign in again, then open the link.');
    if (invitation.email !== null && invitation.email !== user.email) {
      throw new InvitationRefused(
        'forbidden',
        `This invitation is for ${invitation.email}, and you are signed in as ${user.email}. Sign out, then open the link again.`,
      );
    }
    userId = user.id;
    name = user.name;
  } else {
    const email = canonicalEmail(invitation.email ?? acceptance.email);
    if (await findUserByEmailHeld(db, email)) {
      throw new InvitationRefused('conflict', `An account for ${email} exists already: sign in, then open this link again to join.`, {
        reason: 'account_exists',
      });
    }
    userId = (await insertUser(db, { email, name: acceptance.name, passwordHash: acceptance.passwordHash, now })).id;
    name = acceptance.name;
  }
  const member = await addMember(db, invitation.workspace_id, userId, invitation.role, now);
  await markInvitationAccepted(db, invitation.id, userId, now);
  await recordAuditEvent(db, {
    workspaceId: invitation.workspace_id,
    at: now,
    actor: { kind: 'user', id: userId, name },
    action: 'invitation.accepted',
    object: { kind: 'member', id: member.id },
    origin: { transport: 'dashboard', ...origin },
    details: { role: member.role, new_account: acceptance.kind === 'new_account' },
  });
  return { userId, workspaceId: invitation.workspace_id, invitation };
}
