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

export interface Lockout {
  /** Seconds until another attempt may be made, or 0 when neither the account nor the address is locked. */
  retryAfterSeconds: number;
  /** Whether the account has failures on record at all: a success then has some to forget. */
  accountHasFailures: boolean;
}

/**
 * Where the account and the address stand, in one statement (a sign-in is a handful of statements on
 * one embedded connection, and a burst of them queues there). A key unlocks when its limit-th newest
 * failure in the window is a window old.
 */
export async function lockoutOf(db: Kysely<Database>, keys: FailureKeys, now: Date): Promise<Lockout> {
  const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
  const limitthNewest = (column: 'account_key' | 'address_key', key: string, limit: number) =>
    sql<Date | string | null>`(select at from sign_in_failures where ${sql.ref(column)} = ${key} and at > ${since}
      order by at desc offset ${limit - 1} limit 1)`;
  const { rows } = await sql<{ account_at: Date | string | null; address_at: Date | string | null; account_failed: boolean }>`
    select ${limitthNewest('account_key', keys.account, MAX_ACCOUNT_FAILURES)} as account_at,
           ${limitthNewest('address_key', keys.address, MAX_ADDRESS_FAILURES)} as address_at,
           exists (select 1 from sign_in_failures where account_key = ${keys.account}) as account_failed`.execute(db);
  const row = rows[0];
  const unlockAt = (at: Date | string | null | undefined) => (at ? new Date(at).getTime() + FAILURE_WINDOW_MS : 0);
  const until = Math.max(unlockAt(row?.account_at), unlockAt(row?.address_at));
  return {
    retryAfterSeconds: until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0,
    accountHasFailures: row?.account_failed === true,
  };
}

/** Seconds until another attempt may be made, or 0 when neither the account nor the address is locked. */
export async function lockedForSeconds(db: Kysely<Database>, keys: FailureKeys, now: Date): Promise<number> {
  return (await lockoutOf(db, keys, now)).retryAfterSeconds;
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
