/** The email that carries an invitation's link, queued in the invitation's transaction. */
import type { Kysely } from 'kysely';
import type { Database, MemberRole } from '../../../db/tables/index.ts';
import { queueEmail, renderEmail } from '../../email/index.ts';

export interface InvitationMessage {
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: MemberRole;
  /** Who invited them, when a person did (a key has no name worth showing). */
  inviterName: string | null;
  url: string;
  expiresAt: Date;
}

export async function queueInvitationEmail(db: Kysely<Database>, message: InvitationMessage, now: Date): Promise<void> {
  const who = message.inviterName ? `${message.inviterName} invited you` : 'You are invited';
  const { text, html } = renderEmail({
    preheader: `${who} to ${message.workspaceName} on Cuepoint.`,
    heading: `Join ${message.workspaceName} on Cuepoint`,
    paragraphs: [
      `${who} to join the workspace ${message.workspaceName} as ${message.role === 'owner' || message.role === 'admin' ? 'an' : 'a'} ${message.role}.`,
      `The link works once and until ${message.expiresAt.toUTCString()}. If you did not expect this, ignore this email.`,
    ],
    action: { label: 'Accept invitation', url: message.url },
  });
  await queueEmail(
    db,
    {
      workspaceId: message.workspaceId,
      to: { address: message.email },
      subject: `Join ${message.workspaceName} on Cuepoint`,
      text,
      html,
      purpose: 'invitation',
      link: message.url,
    },
    now,
  );
}
