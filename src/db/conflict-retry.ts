/**
 * Running a transaction again when PostgreSQL rolled it back to resolve a conflict with another one:
 * a deadlock (40P01) or a serialization failure (40001). The database undid every write of the
 * failed attempt, so a transaction whose only effects are in the database can simply run again; the
 * conflict is a fact of concurrency, not an error the caller should see.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';

const CONFLICT_CODES = new Set(['40P01', '40001']);

/** Attempts in all. Conflicts between a handful of writers resolve in one or two; more means something loops. */
const ATTEMPTS = 5;

export function isConflictRollback(error: unknown): boolean {
  return CONFLICT_CODES.has(String((error as { code?: unknown } | undefined)?.code));
}

/**
 * `work` in a transaction, run again (up to five attempts in all) when PostgreSQL rolls it back for a
 * conflict. The pause before each retry grows and is jittered, so writers that collided do not
 * collide again in step. `work` must have no effect outside the database.
 */
export async function transactionRetryingConflicts<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isConflictRollback(error)) throw error;
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}
