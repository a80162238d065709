/**
 * Emailed sign-in links (issue 27): the way in without a password, and the way back for a person who
 * forgot theirs. Asking never says whether the address has an account (the page says the same
 * either way); a link works once, for 15 minutes; at most 3 are sent to one account a quarter-hour, so
 * nobody can fill a person's inbox through the form.
 */
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../../db/tables/index.ts';
import { queueEmail, renderEmail } from '../../email/index.ts';
import { consumeOneTimeToken, createOneTimeToken, peekOneTimeToken, tokensSince } from '../one-time/one-time-tokens.queries.ts';
import { findUser, findUserByEmail } from '../users/users.queries.ts';

export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60 * 1000;
const MAX_LINKS_PER_WINDOW = 3;

/**
 * Mails a sign-in link to the account with this email, if there is one and it has not had too many.
 * Runs in a transaction of its own holding the account's row, so asks arriving together are counted
 * one after the other (on PostgreSQL they would otherwise all see fewer than three and all send).
 */
export async function requestSignInLink(
  db: Kysely<Database>,
  request: { email: string; now: Date; signInLinkUrl(secret: string): string },
): Promise<void> {
  await db.transaction().execute((trx) => sendSignInLink(trx, request));
}

async function sendSignInLink(
  db: Kysely<Database>,
  request: { email: string; now: Date; signInLinkUrl(secret: string): string },
): Promise<void> {
  const found = await findUserByEmail(db, request.email);
  if (!found) return;
  const user = await db.selectFrom('users').selectAll().where('id', '=', found.id).forUpdate().executeTakeFirst();
  if (!user) return;
  if ((await tokensSince(db, user.id, 'sign_in_link', new Date(request.now.getTime() - SIGN_IN_LINK_LIFETIME_MS))) >= MAX_LINKS_PER_WINDOW)
    return;
  const secret = await createOneTimeToken(db, {
    purpose: 'sign_in_link',
    userId: user.id,
    lifetimeMs: SIGN_IN_LINK_LIFETIME_MS,
    now: request.now,
  });
  const url = request.signInLinkUrl(secret);
  const { text, html } = renderEmail({
    preheader: 'Your link to sign in to Cuepoint. It works once, for 15 minutes.',
    heading: 'Sign in to Cuepoint',
    paragraphs: [
      `Hi ${user.name}, use the button below to sign in. The link works once, for 15 minutes.`,
      'Once signed in, you can set a new password on your account page. If you did not ask for this, ignore this email: nothing changes.',
    ],
    action: { label: 'Sign in', url },
  });
  await queueEmail(
    db,
    {
      workspaceId: null,
      to: { address: user.email, name: user.name },
      subject: 'Your Cuepoint sign-in link',
      text,
      html,
      purpose: 'sign_in_link',
      link: url,
    },
    request.now,
  );
}

/** The account a live link would sign in, without using it (the page a link opens asks to confirm). */
export async function signInLinkAccount(db: Kysely<Database>, secret: string, now: Date): Promise<UserRow | undefined> {
  const token = await peekOneTimeToken(db, secret, 'sign_in_link', now);
  return token?.userId ? findUser(db, token.userId) : undefined;
}

/** Uses the link: the account it signs in, once. */
export async function useSignInLink(db: Kysely<Database>, secret: string, now: Date): Promise<UserRow | undefined> {
  const token = await consumeOneTimeToken(db, secret, 'sign_in_link', now);
  return token?.userId ? findUser(db, token.userId) : undefined;
}
