/**
 * The service keeps the embedded database's planner statistics, which PGlite's missing autovacuum
 * never would (src/db/pglite-upkeep.ts): soon after a start every table has been analyzed, and the
 * statistics outlast the process.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import test from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from '../../src/db/pglite-start-params.ts';
import { startServer, tempDir } from '../helpers/server-process.ts';

test('a started service analyzes the embedded database, and the statistics are kept on disk', async (t) => {
  const dataDir = tempDir(t);
  const server = await startServer(t, { dataDir, env: { LOG_LEVEL: 'debug' } });
  await server.firstKey();
  await server.printed(/"msg":"embedded database upkeep"/);
  server.kill('SIGTERM');
  assert.equal((await server.exited).code, 0);

  const pglite = await PGlite.create({ dataDir: join(dataDir, 'pgdata'), ...pgliteOptions() });
  t.after(() => pglite.close());
  const { rows } = await pglite.query<{ relname: string; reltuples: number }>(
    `select c.relname, c.reltuples::float8 as reltuples from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r' and c.relname in ('credentials', 'videos', 'workspaces')
     order by c.relname`,
  );
  // -1 is "never analyzed"; the first start made one workspace and its admin key, and no video.
  assert.deepEqual(rows, [
    { relname: 'credentials', reltuples: 1 },
    { relname: 'videos', reltuples: 0 },
    { relname: 'workspaces', reltuples: 1 },
  ]);
});
