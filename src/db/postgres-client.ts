/**
 * The PostgreSQL side of openDatabase (client.ts): a pg pool whose every connection and statement is
 * bounded, behind the same DatabaseHandle as the embedded database. A module of its own so that a
 * start on the embedded database does not load pg.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { tallyQuery } from '../core/query-tally.ts';
import {
  type CredentialLookupRow,
  type DatabaseHandle,
  type DatabaseTarget,
  DEFAULT_PING_TIMEOUT_MS,
  FIND_CREDENTIAL_SQL,
  PARSERS,
  ping,
} from './client.ts';
import type { Database } from './tables/index.ts';

const UNBOUNDED_CONNECT_TIMEOUT_MS = 3000;
/** How much longer than statement_timeout the client waits before it gives up on the server. */
export const CLIENT_TIMEOUT_GRACE_MS = 250;

/** lock_timeout for a statement timeout: four fifths of it, so a lock wait ends before the statement's own limit. */
export function lockTimeoutFor(timeoutMs: number): number {
  return Math.max(1, Math.floor(timeoutMs * 0.8));
}

/**
 * A pg client that closes its connection when a query times out on the client side (query_timeout).
 * pg answers the caller with "Query read timeout" but keeps waiting for the server's reply on that
 * connection, so a client returned to the pool would make every later query wait behind the one the
 * server never answered (a frozen server). Ending it makes the pool drop it and open a fresh one.
 */
class TimeoutSafeClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: forwards pg's overloaded query() unchanged
  override query(...args: any[]): any {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown) => {
        this.endIfTimedOut(error);
        callback(error, result);
      };
      return super.query(...(args as Parameters<pg.Client['query']>));
    }
    const result: unknown = super.query(...(args as Parameters<pg.Client['query']>));
    // A handled branch of the same promise: the caller still gets the rejection.
    if (result instanceof Promise) result.catch((error: unknown) => this.endIfTimedOut(error));
    return result;
  }

  private endIfTimedOut(error: unknown): void {
    if (error instanceof Error && error.message === 'Query read timeout') this.end().catch(() => {});
  }
}

export function openPostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>): DatabaseHandle {
  const { timeoutMs } = target;
  const pool = new pg.Pool({
    Client: TimeoutSafeClient,
    connectionString: target.url,
    max: target.poolSize ?? 10,
    // A dead or frozen server fails a request within the timeout instead of hanging it (DESIGN §7):
    // opening a connection, or waiting for a free one, is bounded; a statement is cancelled by the
    // server after statement_timeout, and given up on by the client (query_timeout) if the server
    // does not answer at all.
    connectionTimeoutMillis: timeoutMs ?? UNBOUNDED_CONNECT_TIMEOUT_MS,
    statement_timeout: timeoutMs ?? false,
    // Waiting for another transaction's lock gives up a little sooner, with its own error (55P03),
    // so a write stuck behind another write is told apart from a server too slow to answer.
    lock_timeout: timeoutMs === undefined ? undefined : lockTimeoutFor(timeoutMs),
    // A little later than the server's own limit, so that a server that is merely slow cancels the
    // statement itself and the connection stays usable.
    query_timeout: timeoutMs === undefined ? undefined : timeoutMs + CLIENT_TIMEOUT_GRACE_MS,
    // public too: the extensions the migrations create live there (migration 0023). JIT off: our
    // statements are short reads and writes, and when the planner's estimate crosses its thresholds
    // the compilation alone costs tens of milliseconds (list_leads by video on a workspace of 50,000
    // leads: 90 ms with JIT, 12 ms without; docs/decisions.md).
    options: [target.schema ? `-c search_path=${target.schema},public` : undefined, '-c jit=off'].filter(Boolean).join(' '),
    types: {
      getTypeParser: (oid, format) => (PARSERS as Record<number, (value: string) => unknown>)[oid] ?? pg.types.getTypeParser(oid, format),
    } as pg.CustomTypesConfig,
  });
  // A client losing its server emits 'error' — idle ones on the pool, busy ones on themselves. Without
  // listeners the process would crash; the query in flight still rejects, and the caller gets a 503.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: tallyQuery });
  const pingTimeoutMs = timeoutMs ?? DEFAULT_PING_TIMEOUT_MS;
  return {
    db,
    kind: 'postgres',
    findCredential: async (tokenHash) => {
      const result = await pool.query<CredentialLookupRow>({
        name: 'cuepoint_find_credential',
        text: FIND_CREDENTIAL_SQL,
        values: [tokenHash],
      });
      return result.rows[0];
    },
    ping: (timeout) => ping(db, timeout ?? pingTimeoutMs),
    close: () => db.destroy(),
  };
}
