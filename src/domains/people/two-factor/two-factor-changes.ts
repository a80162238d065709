/**
 * Turning two-factor on and off from the account (issue 27), each with its audit event. Turning it on
 * takes a code from the new secret. Turning it off takes the password or a current code, and a wrong
 * one counts toward the sign-in lockout: a session left open must not become a way to guess either.
 */
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../../db/tables/index.ts';
import { passwordMatches } from '../passwords/password-hashing.ts';
import { recordPersonEvent } from '../person-events.ts';
import { failureKeys } from '../sign-in/password-sign-in.ts';
import { lockedForSeconds, recordFailure } from '../sign-in/sign-in-failures.queries.ts';
import { looksLikeCode } from './totp.ts';
import { acceptTotpCode, confirmTwoFactor, disableTwoFactor } from './two-factor.queries.ts';

interface Change {
  user: UserRow;
  origin: { address?: string; userAgent?: string };
  now: Date;
}

/** Confirms the waiting secret with a code; false when the code is not right for it. */
export async function turnOnTwoFactor(db: Kysely<Database>, serviceSecret: string, change: Change & { code: string }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await confirmTwoFactor(trx, serviceSecret, change.user, change.code, change.now))) return false;
    await recordPersonEvent(trx, { user: change.user, action: 'two_factor.enabled', origin: change.origin, at: change.now });
    return true;
  });
}

export type TurnOff = { kind: 'done' } | { kind: 'refused' } | { kind: 'locked'; retryAfterSeconds: number };

/** Turns two-factor off when `proof` is the password or a current code. */
export async function turnOffTwoFactor(
  db: Kysely<Database>,
  serviceSecret: string,
  change: Change & { proof: string; address: string },
): Promise<TurnOff> {
  const { user, now } = change;
  const keys = failureKeys(serviceSecret, user.email, change.address);
  const locked = await lockedForSeconds(db, keys, now);
  if (locked > 0) return { kind: 'locked', retryAfterSeconds: locked };
  // Passwords are at least 10 characters: six digits are a code.
  const proven = looksLikeCode(change.proof)
    ? await acceptTotpCode(db, serviceSecret, user, change.proof, now)
    : user.password_hash !== null && change.proof.length > 0 && (await passwordMatches(user.password_hash, change.proof));
  if (!proven) {
    await recordFailure(db, keys, now);
    return { kind: 'refused' };
  }
  await db.transaction().execute(async (trx) => {
    if (await disableTwoFactor(trx, user.id, now))
      await recordPersonEvent(trx, { user, action: 'two_factor.disabled', origin: change.origin, at: now });
  });
  return { kind: 'done' };
}
