/**
 * The migrated template: an embedded (PGlite) cluster with every migration applied and no rows, as a
 * tarball of its data directory. Creating a cluster (initdb) costs PGlite 10 s or more, loading a
 * template about a second, so the template is made once per PGlite version and set of migrations and
 * kept on disk (`node_modules/.cache/cuepoint/`, or the OS temp directory when there is no
 * node_modules). The first start on an empty data directory and every test database start from it.
 *
 * Several processes may find the cache empty at once (test files run in parallel): each makes the
 * template, writes it under a name of its own and renames it into place, so a reader only ever sees
 * a whole file, and the last rename wins with identical content.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { migrateToLatest } from './migrate.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { PGLITE_START_PARAMS, pgliteOptions } from './pglite-start-params.ts';

/** Part of the cache key: bump it when the way a template is made changes. */
const TEMPLATE_FORMAT = '1';
const PACKAGE_ROOT = resolve(import.meta.dirname, '../..');
const MIGRATION_SOURCES = [join(import.meta.dirname, 'migrate.ts'), join(import.meta.dirname, 'migrations')];
/** Templates of other migrations (other branches, older checkouts) unused this long are removed. */
const UNUSED_FOR_MS = 14 * 24 * 60 * 60 * 1000;
/** A temporary file this old belongs to a process that died while writing it. */
const ABANDONED_WRITE_MS = 60 * 60 * 1000;

let inThisProcess: Promise<Uint8Array> | undefined;

/** The template's tarball: from this process's memory, the disk cache, or made now (and cached). */
export function migratedTemplate(): Promise<Uint8Array> {
  inThisProcess ??= loadOrMake(templateCachePath(), makeTemplate).catch((error: unknown) => {
    inThisProcess = undefined;
    throw error;
  });
  return inThisProcess;
}

let emptyInThisProcess: Promise<Uint8Array> | undefined;

/**
 * A cluster as initdb leaves it, before any migration, as a tarball: for tests of what a migration
 * does to the rows an older schema held (migrations/frozen-migrations.test.ts), which would otherwise
 * pay for initdb on every run. Cached beside the template, under a key of the PGlite version and the
 * parameters clusters start with.
 */
export function emptyCluster(): Promise<Uint8Array> {
  emptyInThisProcess ??= loadOrMake(emptyClusterCachePath(), makeEmptyCluster).catch((error: unknown) => {
    emptyInThisProcess = undefined;
    throw error;
  });
  return emptyInThisProcess;
}

/** Makes and caches the template unless a cached one is there already (without reading it). */
export async function cacheTemplate(): Promise<void> {
  if (existsSync(templateCachePath())) return;
  await migratedTemplate();
}

/** What the cached template depends on: the PGlite version and the migrations' source text. */
export function templateKey(): string {
  const hash = createHash('sha256').update(`format ${TEMPLATE_FORMAT}\0pglite ${pgliteVersion()}\0`);
  for (const file of sourceFiles()) {
    hash.update(`${file.slice(PACKAGE_ROOT.length)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

export function templateCachePath(): string {
  return join(cacheDir(), `pgdata-${templateKey()}.tar`);
}

function emptyClusterCachePath(): string {
  const key = createHash('sha256').update(`format ${TEMPLATE_FORMAT}\0pglite ${pgliteVersion()}\0${PGLITE_START_PARAMS.join(' ')}`);
  return join(cacheDir(), `pgdata-empty-${key.digest('hex').slice(0, 24)}.tar`);
}

function cacheDir(): string {
  const base = existsSync(join(PACKAGE_ROOT, 'node_modules')) ? join(PACKAGE_ROOT, 'node_modules', '.cache') : tmpdir();
  return join(base, 'cuepoint');
}

async function loadOrMake(path: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const cached = readCached(path);
  if (cached) return cached;
  const made = await make();
  store(path, made);
  return made;
}

async function makeEmptyCluster(): Promise<Uint8Array> {
  const pglite = await PGlite.create(pgliteOptions());
  try {
    await pglite.exec('checkpoint');
    const dump = await pglite.dumpDataDir('none');
    return new Uint8Array(await dump.arrayBuffer());
  } finally {
    await pglite.close();
  }
}

async function makeTemplate(): Promise<Uint8Array> {
  const pglite = await PGlite.create(pgliteOptions());
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrateToLatest(db);
    // Written out now, so a data directory made from the template has nothing to replay on its first start.
    await sql`checkpoint`.execute(db);
    const dump = await pglite.dumpDataDir('none');
    return new Uint8Array(await dump.arrayBuffer());
  } finally {
    await db.destroy();
  }
}

function readCached(path: string): Uint8Array | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  // A tarball is whole 512-byte blocks; anything else is not one of ours, and is made again.
  if (bytes.length === 0 || bytes.length % 512 !== 0) return undefined;
  try {
    const now = new Date();
    utimesSync(path, now, now); // marks it as in use, so pruning keeps it
  } catch {
    // read-only cache: still usable
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Best effort: without a writable cache the template is simply made again next time. */
function store(path: string, bytes: Uint8Array): void {
  const dir = dirname(path);
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, bytes);
    renameSync(temporary, path);
    prune(dir, path);
  } catch {
    rmSync(temporary, { force: true });
  }
}

function prune(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (path === keep || !name.startsWith('pgdata-')) continue;
    try {
      const age = now - statSync(path).mtimeMs;
      if (age > (name.endsWith('.tmp') ? ABANDONED_WRITE_MS : UNUSED_FOR_MS)) rmSync(path, { force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}

function sourceFiles(): string[] {
  const files: string[] = [];
  for (const source of MIGRATION_SOURCES) {
    if (statSync(source).isDirectory())
      for (const name of readdirSync(source).sort()) {
        if (name.endsWith('.ts') && !name.endsWith('.test.ts')) files.push(join(source, name));
      }
    else files.push(source);
  }
  return files;
}

function pgliteVersion(): string {
  // The package exports no package.json; walk up from its entry point to find it.
  let dir = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === '@electric-sql/pglite' && manifest.version) return manifest.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the version of @electric-sql/pglite');
    dir = parent;
  }
}
