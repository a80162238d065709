/**
 * The first owner's link (DESIGN §10): `npm start` on an empty database, `cuepoint workspace create
 * --owner-email` and `cuepoint workspace invite-owner` hand out an invitation to be an owner of the
 * workspace. With an email, it is also mailed; with none known, its page asks for one.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import { queueInvitationEmail } from './invitation-email.ts';
import { createInvitation } from './invitations.queries.ts';

export interface OwnerInvitation {
  workspaceId: string;
  workspaceName: string;
  email: string | null;
  /** Builds the link from the invitation's secret (MediaLinks.invitationUrl). */
  invitationUrl(secret: string): string;
  now: Date;
}

/** The link that makes its holder an owner; in the caller's transaction. */
export async function inviteOwner(db: Kysely<Database>, owner: OwnerInvitation): Promise<{ url: string; expiresAt: Date }> {
  const { invitation, secret } = await createInvitation(db, {
    workspaceId: owner.workspaceId,
    email: owner.email,
    role: 'owner',
    invitedByUser: null,
    invitedByCredential: null,
    now: owner.now,
  });
  const url = owner.invitationUrl(secret);
  if (invitation.email !== null) {
    await queueInvitationEmail(
      db,
      {
        workspaceId: owner.workspaceId,
        workspaceName: owner.workspaceName,
        email: invitation.email,
        role: 'owner',
        inviterName: null,
        url,
        expiresAt: invitation.expires_at,
      },
      owner.now,
    );
  }
  return { url, expiresAt: invitation.expires_at };
}
