/**
 * One-time tokens: an emailed sign-in link, an email change's confirmation, a second-factor step, a
 * passkey ceremony. Only the secret's SHA-256 is stored; a token works once (consumed atomically, so
 * two uses at once make one) and until it expires.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, OneTimePurpose } from '../../../db/tables/index.ts';
import { hashSecret, newSecret } from '../sessions/session-tokens.ts';

export interface OneTimeToken {
  userId: string | null;
  email: string | null;
  challenge: string | null;
  expiresAt: Date;
}

export async function createOneTimeToken(
  db: Kysely<Database>,
  token: {
    purpose: OneTimePurpose;
    userId: string | null;
    email?: string | null;
    challenge?: string | null;
    lifetimeMs: number;
    now: Date;
  },
): Promise<string> {
  const { secret, hash } = newSecret();
  await db
    .insertInto('one_time_tokens')
    .values({
      token_hash: hash,
      purpose: token.purpose,
      user_id: token.userId,
      email: token.email ?? null,
      challenge: token.challenge ?? null,
      created_at: token.now,
      expires_at: new Date(token.now.getTime() + token.lifetimeMs),
    })
    .execute();
  // Expired tokens are worth nothing: forget the person's old ones as new ones are made.
  if (token.userId) {
    await db.deleteFrom('one_time_tokens').where('user_id', '=', token.userId).where('expires_at', '<=', token.now).execute();
  }
  return secret;
}

/** The token if it is live (unused, unexpired), without using it: for the page a link opens. */
export async function peekOneTimeToken(
  db: Kysely<Database>,
  secret: string,
  purpose: OneTimePurpose,
  now: Date,
): Promise<OneTimeToken | undefined> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select(['user_id', 'email', 'challenge', 'expires_at'])
    .where('token_hash', '=', hashSecret(secret))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? { userId: row.user_id, email: row.email, challenge: row.challenge, expiresAt: row.expires_at } : undefined;
}

/** Uses the token: the first caller gets it, every later one (and any after expiry) gets undefined. */
export async function consumeOneTimeToken(
  db: Kysely<Database>,
  secret: string,
  purpose: OneTimePurpose,
  now: Date,
): Promise<OneTimeToken | undefined> {
  const row = await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashSecret(secret))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'email', 'challenge', 'expires_at'])
    .executeTakeFirst();
  return row ? { userId: row.user_id, email: row.email, challenge: row.challenge, expiresAt: row.expires_at } : undefined;
}

/** How many tokens of `purpose` the person was given since `since` (to cap emailed links). */
export async function tokensSince(db: Kysely<Database>, userId: string, purpose: OneTimePurpose, since: Date): Promise<number> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select(sql<string>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
