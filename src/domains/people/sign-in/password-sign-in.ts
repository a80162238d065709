/**
 * Checking an email and password (issue 27). The answer never says whether the email has an account:
 * a wrong password and an unknown email get the same refusal after the same work (a decoy argon2
 * check), and both count toward the lockout of that email and of the client address.
 */
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../../db/tables/index.ts';
import { passwordMatches, spendPasswordCheck } from '../passwords/password-hashing.ts';
import { canonicalEmail, findUserByEmail } from '../users/users.queries.ts';
import { clearAccountFailures, type FailureKeys, lockoutOf, recordFailure } from './sign-in-failures.queries.ts';

export type PasswordSignIn =
  | { kind: 'accepted'; user: UserRow }
  | { kind: 'refused'; user: UserRow | undefined }
  | { kind: 'locked'; retryAfterSeconds: number };

export interface PasswordAttempt {
  email: string;
  password: string;
  /** The client's address, as the transport established it. */
  address: string;
  now: Date;
}

export function failureKeys(serviceSecret: string, email: string, address: string): FailureKeys {
  const keyed = (text: string) => createHmac('sha256', serviceSecret).update(text).digest('hex');
  return { account: keyed(`sign-in account:${canonicalEmail(email)}`), address: keyed(`sign-in address:${address}`) };
}

export async function checkPassword(db: Kysely<Database>, serviceSecret: string, attempt: PasswordAttempt): Promise<PasswordSignIn> {
  const keys = failureKeys(serviceSecret, attempt.email, attempt.address);
  const lockout = await lockoutOf(db, keys, attempt.now);
  if (lockout.retryAfterSeconds > 0) return { kind: 'locked', retryAfterSeconds: lockout.retryAfterSeconds };
  const user = await findUserByEmail(db, attempt.email);
  const matches = user?.password_hash
    ? await passwordMatches(user.password_hash, attempt.password)
    : await spendPasswordCheck(attempt.password);
  if (!matches || !user) {
    await recordFailure(db, keys, attempt.now);
    return { kind: 'refused', user };
  }
  // With two-factor on, the right password is half a sign-in: the failures stay until the code is right too.
  if (!user.totp_enabled_at && lockout.accountHasFailures) await clearAccountFailures(db, keys.account);
  return { kind: 'accepted', user };
}
