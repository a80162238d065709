/**
 * Counting the statements a piece of work sends to the database, for the Server-Timing header of the
 * dashboard's pages (issue 28: no page makes more than one round trip per widget; the benchmark and a
 * person's browser tools both read it there). Work run inside `withQueryTally` has its statements and
 * their time added up; statements of anything else are not counted, and cost one store lookup.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogEvent } from 'kysely';

export interface QueryTally {
  queries: number;
  milliseconds: number;
}

const tallies = new AsyncLocalStorage<QueryTally>();

export function withQueryTally<T>(work: () => Promise<T>): Promise<T> {
  return tallies.run({ queries: 0, milliseconds: 0 }, work);
}

/** The tally of the work running now, if it is counted. */
export function currentQueryTally(): QueryTally | undefined {
  return tallies.getStore();
}

/** Kysely's `log` hook: every statement, answered or failed, with its time. */
export function tallyQuery(event: LogEvent): void {
  const tally = tallies.getStore();
  if (!tally) return;
  tally.queries++;
  tally.milliseconds += event.queryDurationMillis;
}

/** `db;dur=3.2;desc="4 queries"`, a Server-Timing entry. */
export function serverTimingOf(tally: QueryTally): string {
  return `db;dur=${tally.milliseconds.toFixed(1)};desc="${tally.queries} ${tally.queries === 1 ? 'query' : 'queries'}"`;
}
