/**
 * The challenges of passkey ceremonies, kept server-side as one-time tokens: 32 random bytes, stored as
 * the SHA-256 of their base64url text (the form the browser signs and sends back), valid for five
 * minutes, used once. A challenge for adding a passkey belongs to the person who asked for it; one for
 * signing in belongs to nobody yet (the passkey says who it is).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import { hashSecret } from '../sessions/session-tokens.ts';

export type CeremonyPurpose = 'passkey_registration' | 'passkey_sign_in';

/** How long a browser has between asking for a challenge and answering it (the ceremony's timeout is shorter). */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;
/** What the browser is told: give up after this long. */
export const CEREMONY_TIMEOUT_MS = 3 * 60_000;

/** A new challenge's bytes (what the options carry) and its base64url text (what the response signs). */
export async function issueChallenge(
  db: Kysely<Database>,
  purpose: CeremonyPurpose,
  userId: string | null,
  now: Date,
): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new Uint8Array(randomBytes(32));
  // Expired challenges are worth nothing: forget them as new ones are made.
  await db.deleteFrom('one_time_tokens').where('purpose', '=', purpose).where('expires_at', '<=', now).execute();
  await db
    .insertInto('one_time_tokens')
    .values({
      token_hash: hashSecret(Buffer.from(bytes).toString('base64url')),
      purpose,
      user_id: userId,
      email: null,
      challenge: null,
      created_at: now,
      expires_at: new Date(now.getTime() + CHALLENGE_LIFETIME_MS),
    })
    .execute();
  return bytes;
}

/**
 * Uses up `challenge` (base64url, as the browser returned it): true when it was issued for this purpose
 * (and this person), is not expired and was never used. Called before the response is checked, so a
 * challenge is spent even by a response that fails.
 */
export async function consumeChallenge(
  db: Kysely<Database>,
  purpose: CeremonyPurpose,
  challenge: string,
  userId: string | null,
  now: Date,
): Promise<boolean> {
  let update = db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashSecret(challenge))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  update = userId === null ? update.where('user_id', 'is', null) : update.where('user_id', '=', userId);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
