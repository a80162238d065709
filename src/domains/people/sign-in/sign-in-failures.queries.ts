/**
 * Failed sign-ins, counted per account and per client address over a quarter of an hour (issue 27):
 * 5 per account, 20 per address, then every attempt is refused, the right password too, until the
 * oldest failure in the window is 15 minutes old. Rows hold HMACs of the address typed and of the
 * client address, never the values, and are deleted once out of the window. In the database, so the
 * count holds across processes and restarts.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_ACCOUNT_FAILURES = 5;
export const MAX_ADDRESS_FAILURES = 20;

export interface FailureKeys {
  account: string;
  address: string;
}

/** Seconds until another attempt may be made, or 0 when neither the account nor the address is locked. */
export async function lockedForSeconds(db: Kysely<Database>, keys: FailureKeys, now: Date): Promise<number> {
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
  const [account, address] = await Promise.all([
    unlockAt(db, 'account_key', keys.account, MAX_ACCOUNT_FAILURES, since),
    unlockAt(db, 'address_key', keys.address, MAX_ADDRESS_FAILURES, since),
  ]);
  const until = Math.max(account ?? 0, address ?? 0);
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0;
}

/** When the key unlocks (ms), if it has `limit` failures in the window: the limit-th newest failure plus the window. */
async function unlockAt(
  db: Kysely<Database>,
  column: 'account_key' | 'address_key',
  key: string,
  limit: number,
  since: Date,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('sign_in_failures')
    .select('at')
    .where(column, '=', key)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  return row ? row.at.getTime() + FAILURE_WINDOW_MS : undefined;
}

export async function recordFailure(db: Kysely<Database>, keys: FailureKeys, now: Date): Promise<void> {
  await db
    .insertInto('sign_in_failures')
    .values({ id: randomUUID(), account_key: keys.account, address_key: keys.address, at: now })
    .execute();
  // Out of the window, a failure counts for nothing: forget it.
  await db
    .deleteFrom('sign_in_failures')
    .where(sql<boolean>`at <= ${new Date(now.getTime() - FAILURE_WINDOW_MS)}`)
    .where((eb) => eb.or([eb('account_key', '=', keys.account), eb('address_key', '=', keys.address)]))
    .execute();
}

/** A successful sign-in forgets the account's failures (not the address's: one right guess does not clear a spray). */
export async function clearAccountFailures(db: Kysely<Database>, accountKey: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('account_key', '=', accountKey).execute();
}
