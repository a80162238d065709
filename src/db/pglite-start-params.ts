/**
 * How every PGlite cluster is started, on disk or in memory: PGlite's defaults with a 32 MB buffer
 * pool instead of PostgreSQL's 128 MB. PGlite is one backend in one process whose files already sit
 * in the operating system's page cache (or, in memory, are memory), so the larger pool mostly doubles
 * what is cached; setting it up costs about half a second of CPU on every start, which is a fifth of
 * the first `npm start` and is paid by every test file. Larger deployments use PostgreSQL.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const PGLITE_START_PARAMS: readonly string[] = Object.freeze([...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB']);

/**
 * The options every PGlite cluster starts with: the parameters above, and the extensions the
 * migrations create (pg_trgm, for search's tolerance of typos), which PGlite must have loaded
 * before `create extension` can find them.
 */
export function pgliteOptions() {
  return { startParams: [...PGLITE_START_PARAMS], extensions: { pg_trgm } };
}
