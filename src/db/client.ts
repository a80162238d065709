/**
 * Opens the database: PostgreSQL when a connection string is given, otherwise the embedded PGlite in
 * the data directory (or in memory, for tests). Both speak the same SQL through the same Kysely types.
 */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Database } from './tables.ts';

const INT8_OID = 20;
const DATE_OID = 1082;
const parseInt8 = (value: string) => Number(value);
// A calendar day (analytics days in the workspace's time zone) stays the 'YYYY-MM-DD' it is: turning
// it into a Date would pin it to midnight in the server's zone and shift it.
const keepText = (value: string) => value;
const PARSERS = { [INT8_OID]: parseInt8, [DATE_OID]: keepText };

const FIND_CREDENTIAL_SQL = `select c.id, c.workspace_id, c.kind, c.scopes, c.expires_at, c.revoked_at, w.plan, w.mask_pii
  from credentials c join workspaces w on w.id = c.workspace_id
  where c.token_hash = $1`;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; schema?: string; poolSize?: number }
  | { kind: 'pglite'; dataDir: string }
  /** In memory; `snapshot` (from dumpDataDir) starts it from a copy instead of an empty cluster. */
  | { kind: 'pglite-memory'; snapshot?: Blob | File };

/** What authentication needs to know about a credential, found by the hash of its token. */
export interface CredentialLookupRow {
  id: string;
  workspace_id: string;
  kind: 'api_key' | 'assistant';
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
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
  /** The embedded database's files as a tarball (PGlite only), to start other in-memory copies from. */
  snapshot?(): Promise<Blob | File>;
  /** True when the database answers a trivial query within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') return openPostgres(target.url, target.schema, target.poolSize);
  if (target.kind === 'pglite') return openEmbedded(target.dataDir);
  return wrapPGlite(await PGlite.create({ parsers: PARSERS, loadDataDir: target.snapshot }));
}

function openPostgres(url: string, schema: string | undefined, poolSize = 10): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 3000,
    // A dead server must fail a request quickly, not hang it (DESIGN §7).
    query_timeout: 30_000,
    options: schema ? `-c search_path=${schema}` : undefined,
    types: {
      getTypeParser: (oid, format) => (PARSERS as Record<number, (value: string) => unknown>)[oid] ?? pg.types.getTypeParser(oid, format),
    } as pg.CustomTypesConfig,
  });
  // A client losing its server emits 'error' — idle ones on the pool, busy ones on themselves. Without
  // listeners the process would crash; the query in flight still rejects, and the caller gets a 503.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
    ping: (timeoutMs) => ping(db, timeoutMs),
    close: () => db.destroy(),
  };
}

async function openEmbedded(dataDir: string): Promise<DatabaseHandle> {
  const pgDataDir = join(dataDir, 'pgdata');
  const lock = lockDataDir(dataDir, pgDataDir);
  try {
    const pglite = await PGlite.create(pgDataDir, { parsers: PARSERS });
    return wrapPGlite(pglite, lock);
  } catch (error) {
    lock.release();
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
    snapshot: () => pglite.dumpDataDir('none'),
    ping: (timeoutMs) => ping(db, timeoutMs),
    close: async () => {
      await db.destroy();
      lock?.release();
    },
  };
}

async function ping(db: Kysely<Database>, timeoutMs = 2000): Promise<boolean> {
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
