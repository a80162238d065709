/**
 * Changing the email of an account: a link is mailed to the NEW address, and only following it makes
 * the change (so nobody can move an account to an address they do not hold, or a typo lock a person
 * out). The old address is told once the change is made.
 */
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../../db/tables/index.ts';
import { queueEmail, renderEmail } from '../../email/index.ts';
import { consumeOneTimeToken, createOneTimeToken, peekOneTimeToken } from '../one-time/one-time-tokens.queries.ts';
import { canonicalEmail, findUser, findUserByEmail, findUserByEmailHeld } from '../users/users.queries.ts';

export const EMAIL_CHANGE_LIFETIME_MS = 24 * 3600 * 1000;

export type EmailChangeRequest = { kind: 'sent' } | { kind: 'taken' } | { kind: 'unchanged' };

export async function requestEmailChange(
  db: Kysely<Database>,
  request: { userId: string; newEmail: string; now: Date; confirmUrl(secret: string): string },
): Promise<EmailChangeRequest> {
  const user = await findUser(db, request.userId);
  const email = canonicalEmail(request.newEmail);
  if (!user || user.email === email) return { kind: 'unchanged' };
  if (await findUserByEmail(db, email)) return { kind: 'taken' };
  const secret = await createOneTimeToken(db, {
    purpose: 'email_change',
    userId: user.id,
    email,
    lifetimeMs: EMAIL_CHANGE_LIFETIME_MS,
    now: request.now,
  });
  const url = request.confirmUrl(secret);
  const { text, html } = renderEmail({
    heading: 'Confirm your new email',
    paragraphs: [
      `Hi ${user.name}, confirm that Cuepoint should use this address for your account from now on. The link works once, for 24 hours.`,
    ],
    action: { label: 'Confirm new email', url },
  });
  await queueEmail(
    db,
    {
      workspaceId: null,
      to: { address: email, name: user.name },
      subject: 'Confirm your new Cuepoint email',
      text,
      html,
      purpose: 'email_change',
      link: url,
    },
    request.now,
  );
  return { kind: 'sent' };
}

/** The change a live link would make, without making it. */
export async function pendingEmailChange(
  db: Kysely<Database>,
  secret: string,
  now: Date,
): Promise<{ user: UserRow; email: string } | undefined> {
  const token = await peekOneTimeToken(db, secret, 'email_change', now);
  const user = token?.userId ? await findUser(db, token.userId) : undefined;
  return user && token?.email ? { user, email: token.email } : undefined;
}

export type EmailChange = { kind: 'changed'; user: UserRow; previous: string } | { kind: 'invalid' } | { kind: 'taken'; email: string };

/** Makes the change a link asks for, once; in the caller's transaction. */
export async function confirmEmailChange(db: Kysely<Database>, secret: string, now: Date): Promise<EmailChange> {
  const token = await consumeOneTimeToken(db, secret, 'email_change', now);
  const user = token?.userId ? await findUser(db, token.userId) : undefined;
  if (!user || !token?.email) return { kind: 'invalid' };
  if (await findUserByEmailHeld(db, token.email)) return { kind: 'taken', email: token.email };
  const changed = await db
    .updateTable('users')
    .set({ email: token.email, updated_at: now })
    .where('id', '=', user.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const { text, html } = renderEmail({
    heading: 'Your email was changed',
    paragraphs: [
      `Hi ${user.name}, your Cuepoint account now uses ${token.email} instead of this address. If this was not you, contact your workspace owner at once.`,
    ],
  });
  await queueEmail(
    db,
    {
      workspaceId: null,
      to: { address: user.email, name: user.name },
      subject: 'Your Cuepoint email was changed',
      text,
      html,
      purpose: 'email_changed',
    },
    now,
  );
  return { kind: 'changed', user: changed, previous: user.email };
}
