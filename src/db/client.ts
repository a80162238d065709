/**
 * Opens the database: PostgreSQL when a connection string is given, otherwise the embedded PGlite in
 * the data directory (or in memory, for tests). Both speak the same SQL through the same Kysely types.
 * A new embedded database, on disk or in memory, starts as a copy of the migrated template
 * (pglite-template.ts) instead of running initdb, which takes PGlite 10 s or more.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import { extractTar } from './extract-tar.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { pgliteOptions } from './pglite-start-params.ts';
import { migratedTemplate } from './pglite-template.ts';
import type { Database } from './tables/index.ts';

const INT8_OID = 20;
const DATE_OID = 1082;
const parseInt8 = (value: string) => Number(value);
// A calendar day (analytics days in the workspace's time zone) stays the 'YYYY-MM-DD' it is: turning
// it into a Date would pin it to midnight in the server's zone and shift it.
const keepText = (value: string) => value;
const PARSERS = { [INT8_OID]: parseInt8, [DATE_OID]: keepText };

const FIND_CREDENTIAL_SQL = `select c.id, c.workspace_id, c.kind, c.scopes, c.expires_at, c.revoked_at, c.last_used_at, w.plan, w.mask_pii
  from credentials c join workspaces w on w.id = c.workspace_id
  where c.token_hash = $1`;

export type DatabaseTarget =
  | {
      kind: 'postgres';
      url: string;
      schema?: string;
      poolSize?: number;
      /**
       * The longest a connection may take to open and a statement to run (CUEPOINT_DB_TIMEOUT_MS for a
       * serving process); a server that does not answer at all is given up on 250 ms after that.
       * Unset: 3 s to connect and no limit on statements, for migrations.
       */
      timeoutMs?: number;
    }
  /** In `dataDir`/pgdata; made from the migrated template when that directory is missing or empty. */
  | { kind: 'pglite'; dataDir: string }
  /** In memory (tests): a private copy of the migrated template. */
  | { kind: 'pglite-memory' };

/** What authentication needs to know about a credential, found by the hash of its token. */
export interface CredentialLookupRow {
  id: string;
  workspace_id: string;
  kind: 'api_key' | 'assistant';
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  plan: 'free' | 'pro' | 'business';
  mask_pii: boolean;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: 'postgres' | 'pglite';
  /**
   * The credential lookup every request makes. On PostgreSQL it is a named prepared statement, planned
   * once per connection instead of on every request: it is the one query each API call pays for.
   */
  findCredential(tokenHash: string): Promise<CredentialLookupRow | undefined>;
  /** True when the database answers a trivial query within `timeoutMs` (default: the handle's own timeout, else 2 s). */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') return openPostgres(target);
  if (target.kind === 'pglite') return openEmbedded(target.dataDir);
  return openInMemory();
}

async function openInMemory(): Promise<DatabaseHandle> {
  const tarball = loadableTarball(await migratedTemplate());
  return wrapPGlite(await PGlite.create({ parsers: PARSERS, loadDataDir: tarball, ...pgliteOptions() }));
}

/**
 * A data directory's tarball as PGlite's `loadDataDir` takes it. PGlite only calls arrayBuffer() on
 * what it loads. A real Blob would copy the 40 MB tarball twice (into the Blob, then out of it in
 * chunks), which costs about a second on a busy machine; the bytes are handed over as they are
 * instead, and PGlite only reads them.
 */
export function loadableTarball(bytes: Uint8Array): Blob {
  return {
    type: 'application/x-tar',
    arrayBuffer: async () =>
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? bytes.buffer
        : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  } as unknown as Blob;
}

const UNBOUNDED_CONNECT_TIMEOUT_MS = 3000;
/** How much longer than statement_timeout the client waits before it gives up on the server. */
export const CLIENT_TIMEOUT_GRACE_MS = 250;

/** lock_timeout for a statement timeout: four fifths of it, so a lock wait ends before the statement's own limit. */
export function lockTimeoutFor(timeoutMs: number): number {
  return Math.max(1, Math.floor(timeoutMs * 0.8));
}
const DEFAULT_PING_TIMEOUT_MS = 2000;

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

function openPostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>): DatabaseHandle {
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
    // public too: the extensions the migrations create live there (migration 0023).
    options: target.schema ? `-c search_path=${target.schema},public` : undefined,
    types: {
      getTypeParser: (oid, format) => (PARSERS as Record<number, (value: string) => unknown>)[oid] ?? pg.types.getTypeParser(oid, format),
    } as pg.CustomTypesConfig,
  });
  // A client losing its server emits 'error' — idle ones on the pool, busy ones on themselves. Without
  // listeners the process would crash; the query in flight still rejects, and the caller gets a 503.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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

async function openEmbedded(dataDir: string): Promise<DatabaseHandle> {
  const pgDataDir = join(dataDir, 'pgdata');
  const lock = lockDataDir(dataDir, pgDataDir);
  try {
    if (!existsSync(join(pgDataDir, 'PG_VERSION')) && isEmptyOrMissing(pgDataDir)) await createFromTemplate(pgDataDir);
    const pglite = await PGlite.create(pgDataDir, { parsers: PARSERS, ...pgliteOptions() });
    return wrapPGlite(pglite, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * Writes the migrated template into an empty data directory. It is extracted next to it and renamed
 * into place, so a start killed half-way leaves no half-made database behind (the next start removes
 * the leftover and extracts again). PGlite's own postmaster.pid is left out: it would make the open abort.
 */
async function createFromTemplate(pgDataDir: string): Promise<void> {
  const template = await migratedTemplate();
  const partial = `${pgDataDir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  extractTar(template, partial, (name) => name !== 'postmaster.pid');
  rmSync(pgDataDir, { recursive: true, force: true }); // missing or empty: checked by the caller
  renameSync(partial, pgDataDir);
}

function isEmptyOrMissing(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

function wrapPGlite(pglite: PGlite, lock?: DataDirLock): DatabaseHandle {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return {
    db,
    kind: 'pglite',
    findCredential: async (tokenHash) => {
      const result = await db.executeQuery<CredentialLookupRow>(CompiledQuery.raw(FIND_CREDENTIAL_SQL, [tokenHash]));
      return result.rows[0];
    },
    ping: (timeout) => ping(db, timeout ?? DEFAULT_PING_TIMEOUT_MS),
    close: async () => {
      try {
        await db.destroy();
      } finally {
        lock?.release();
      }
    },
  };
}

async function ping(db: Kysely<Database>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const query = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
