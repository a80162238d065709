/**
 * Opens the database: PostgreSQL when a connection string is given, otherwise the embedded PGlite in
 * the data directory (or in memory, for tests). Both speak the same SQL through the same Kysely types.
 * A new embedded database, on disk or in memory, starts as a copy of the migrated template
 * (pglite-template.ts) instead of running initdb, which takes PGlite 10 s or more.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { tallyQuery } from '../core/query-tally.ts';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import { extractTar } from './extract-tar.ts';
import { preparedCredentialLookup } from './pglite-credential-lookup.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { pgliteOptions } from './pglite-start-params.ts';
import { migratedTemplate } from './pglite-template.ts';
import { embeddedUpkeep, type UpkeepReport } from './pglite-upkeep.ts';
import type { Database } from './tables/index.ts';

const INT8_OID = 20;
const DATE_OID = 1082;
const parseInt8 = (value: string) => Number(value);
// A calendar day (analytics days in the workspace's time zone) stays the 'YYYY-MM-DD' it is: turning
// it into a Date would pin it to midnight in the server's zone and shift it.
const keepText = (value: string) => value;
export const PARSERS = { [INT8_OID]: parseInt8, [DATE_OID]: keepText };

// The scopes come as JSON: the same array, read by JSON.parse instead of pg's parser of array
// literals, which took several times as long for an admin key's scopes (it runs on every request).
export const FIND_CREDENTIAL_SQL = `select c.id, c.workspace_id, c.kind, c.name, to_json(c.scopes) as scopes, c.expires_at, c.revoked_at, c.last_used_at,
    c.created_by_user, c.resource, c.token_expires_at, m.role as member_role, w.plan, w.mask_pii
  from credentials c join workspaces w on w.id = c.workspace_id
    left join members m on m.workspace_id = c.workspace_id and m.user_id = c.created_by_user
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
  name: string;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  /** The member who minted the credential (null: minted on the command line), and their role now. */
  created_by_user: string | null;
  member_role: 'owner' | 'admin' | 'member' | 'viewer' | null;
  /** The only resource it works at (a connected assistant's: the MCP endpoint); null for a pasted key. */
  resource: string | null;
  /** The current token's end when shorter than the credential's (a connected assistant's hour). */
  token_expires_at: Date | null;
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
  /**
   * The embedded database only: what PostgreSQL's autovacuum would do (analyze and vacuum the tables
   * that changed enough), for the service to call every minute. PostgreSQL does it itself.
   */
  upkeep?: () => Promise<UpkeepReport>;
  close(): Promise<void>;
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  // pg and its protocol code (some 30 files) are loaded only when PostgreSQL is configured.
  if (target.kind === 'postgres') return (await import('./postgres-client.ts')).openPostgres(target);
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

export const DEFAULT_PING_TIMEOUT_MS = 2000;

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
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), log: tallyQuery });
  return {
    db,
    kind: 'pglite',
    findCredential: preparedCredentialLookup<CredentialLookupRow>(db, FIND_CREDENTIAL_SQL),
    ping: (timeout) => ping(db, timeout ?? DEFAULT_PING_TIMEOUT_MS),
    upkeep: embeddedUpkeep(db),
    close: async () => {
      try {
        await db.destroy();
      } finally {
        lock?.release();
      }
    },
  };
}

export async function ping(db: Kysely<Database>, timeoutMs: number): Promise<boolean> {
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
