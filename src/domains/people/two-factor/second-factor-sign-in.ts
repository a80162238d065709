/**
 * The second step of a password sign-in when the person has two-factor on (issue 27). The right
 * password does not start a session: it issues a `second_factor` one-time token (five minutes, its
 * secret carried by the code form, only its hash stored), and the session starts once a current code
 * is entered with it. A wrong code counts toward the lockout of the account and the address like a
 * wrong password, and the account's failures are forgotten only once the code is right, so knowing the
 * password buys no more guesses at the code.
 */
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../../db/tables/index.ts';
import { hashSecret, newSecret } from '../sessions/session-tokens.ts';
import { failureKeys } from '../sign-in/password-sign-in.ts';
import { clearAccountFailures, lockedForSeconds, recordFailure } from '../sign-in/sign-in-failures.queries.ts';
import { findUser } from '../users/users.queries.ts';
import { acceptTotpCode } from './two-factor.queries.ts';

export const SECOND_FACTOR_LIFETIME_MS = 5 * 60_000;

/** After the right password: the secret the code form carries to say so. */
export async function startSecondFactor(db: Kysely<Database>, userId: string, now: Date): Promise<string> {
  const { secret, hash } = newSecret();
  await db.deleteFrom('one_time_tokens').where('purpose', '=', 'second_factor').where('expires_at', '<=', now).execute();
  await db
    .insertInto('one_time_tokens')
    .values({
      token_hash: hash,
      purpose: 'second_factor',
      user_id: userId,
      email: null,
      challenge: null,
      created_at: now,
      expires_at: new Date(now.getTime() + SECOND_FACTOR_LIFETIME_MS),
    })
    .execute();
  return secret;
}

export type SecondFactorCheck =
  | { kind: 'accepted'; user: UserRow }
  | { kind: 'refused'; user: UserRow }
  | { kind: 'locked'; retryAfterSeconds: number }
  /** The token is unknown, expired or used, or two-factor was turned off meanwhile: start again from the password. */
  | { kind: 'expired' };

export interface SecondFactorAttempt {
  /** The secret startSecondFactor gave (checked for its shape by the caller). */
  pending: string;
  code: string;
  /** The client's address, as the transport established it. */
  address: string;
  now: Date;
}

export async function checkSecondFactor(
  db: Kysely<Database>,
  serviceSecret: string,
  attempt: SecondFactorAttempt,
): Promise<SecondFactorCheck> {
  const { now } = attempt;
  const tokenHash = hashSecret(attempt.pending);
  const token = await db
    .selectFrom('one_time_tokens')
    .select(['user_id'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', 'second_factor')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  const user = token?.user_id ? await findUser(db, token.user_id) : undefined;
  if (!user?.totp_enabled_at) return { kind: 'expired' };
  const keys = failureKeys(serviceSecret, user.email, attempt.address);
  const locked = await lockedForSeconds(db, keys, now);
  if (locked > 0) return { kind: 'locked', retryAfterSeconds: locked };
  if (!(await acceptTotpCode(db, serviceSecret, user, attempt.code, now))) {
    await recordFailure(db, keys, now);
    return { kind: 'refused', user };
  }
  const used = await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return { kind: 'expired' };
  await clearAccountFailures(db, keys.account);
  return { kind: 'accepted', user };
}
