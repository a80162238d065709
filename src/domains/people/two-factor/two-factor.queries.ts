/**
 * A person's TOTP second factor, kept in users.totp_secret sealed (core/secrets/sealed-box.ts, under
 * the service secret): the secret and the last time step a code was accepted for. Set up in two steps:
 * a new secret waits (totp_enabled_at null) until a code from it is confirmed, and only then asks for
 * codes at sign-in. Accepting a code moves the step forward by replacing the sealed value only if it is
 * still the one read, so a code used twice at once is accepted once.
 */
import type { Kysely } from 'kysely';
import { createSealedBox, type SealedBox } from '../../../core/secrets/sealed-box.ts';
import type { Database, UserRow } from '../../../db/tables/index.ts';
import { matchingStep, newTotpSecret } from './totp.ts';

export const TOTP_SECRET_PURPOSE = 'totp secrets';

interface TotpRecord {
  secret: string;
  /** The last time step a code was accepted for; codes of this step and earlier are refused. */
  last_step: number | null;
}

export type TwoFactorState =
  | { kind: 'off' }
  /** Set up but not confirmed: the secret is shown until a code from it is entered. */
  | { kind: 'pending'; secret: string }
  | { kind: 'on'; since: Date };

const boxes = new Map<string, SealedBox>();
function box(serviceSecret: string): SealedBox {
  let found = boxes.get(serviceSecret);
  if (!found) {
    found = createSealedBox(serviceSecret, TOTP_SECRET_PURPOSE);
    boxes.set(serviceSecret, found);
  }
  return found;
}

/** The sealed record, or undefined when it cannot be opened (sealed under another CUEPOINT_SECRET): no code is right then. */
function opened(serviceSecret: string, sealed: string): TotpRecord | undefined {
  try {
    return box(serviceSecret).open(sealed) as TotpRecord;
  } catch {
    return undefined;
  }
}

export function twoFactorState(serviceSecret: string, user: Pick<UserRow, 'totp_secret' | 'totp_enabled_at'>): TwoFactorState {
  if (!user.totp_secret) return { kind: 'off' };
  if (user.totp_enabled_at) return { kind: 'on', since: user.totp_enabled_at };
  const record = opened(serviceSecret, user.totp_secret);
  // A waiting secret nobody can read any more is as good as none: setting up starts again.
  return record ? { kind: 'pending', secret: record.secret } : { kind: 'off' };
}

/** A new secret waiting for its first code (replacing one that waited); none while two-factor is on. */
export async function beginTwoFactorSetup(db: Kysely<Database>, serviceSecret: string, userId: string, now: Date): Promise<boolean> {
  const sealed = box(serviceSecret).seal({ secret: newTotpSecret(), last_step: null } satisfies TotpRecord);
  const result = await db
    .updateTable('users')
    .set({ totp_secret: sealed, updated_at: now })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Drops a secret that was never confirmed. */
export async function cancelTwoFactorSetup(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: null, updated_at: now })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is', null)
    .execute();
}

/**
 * Turns two-factor on when `code` is right for the waiting secret (`user` as just read). The code's
 * step is remembered, so the code that confirmed cannot also sign in.
 */
export async function confirmTwoFactor(
  db: Kysely<Database>,
  serviceSecret: string,
  user: Pick<UserRow, 'id' | 'totp_secret' | 'totp_enabled_at'>,
  code: string,
  now: Date,
): Promise<boolean> {
  if (!user.totp_secret || user.totp_enabled_at) return false;
  const record = opened(serviceSecret, user.totp_secret);
  const step = record && matchingStep(record.secret, code, now);
  if (!record || step === undefined) return false;
  const result = await db
    .updateTable('users')
    .set({
      totp_secret: box(serviceSecret).seal({ secret: record.secret, last_step: step } satisfies TotpRecord),
      totp_enabled_at: now,
      updated_at: now,
    })
    .where('id', '=', user.id)
    .where('totp_secret', '=', user.totp_secret)
    .where('totp_enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function disableTwoFactor(db: Kysely<Database>, userId: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_secret: null, totp_enabled_at: null, updated_at: now })
    .where('id', '=', userId)
    .where('totp_enabled_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Whether `code` is a right code of `user`'s second factor (as just read) for a step after the last
 * one accepted; if so that step is now the last. False when two-factor is off.
 */
export async function acceptTotpCode(
  db: Kysely<Database>,
  serviceSecret: string,
  user: Pick<UserRow, 'id' | 'totp_secret' | 'totp_enabled_at'>,
  code: string,
  now: Date,
): Promise<boolean> {
  if (!user.totp_secret || !user.totp_enabled_at) return false;
  const record = opened(serviceSecret, user.totp_secret);
  const step = record && matchingStep(record.secret, code, now);
  if (!record || step === undefined || (record.last_step !== null && step <= record.last_step)) return false;
  const result = await db
    .updateTable('users')
    .set({ totp_secret: box(serviceSecret).seal({ secret: record.secret, last_step: step } satisfies TotpRecord) })
    .where('id', '=', user.id)
    .where('totp_secret', '=', user.totp_secret)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
