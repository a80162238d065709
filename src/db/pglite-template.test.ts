/**
 * The migrated template that new embedded databases start from: it holds the schema and no rows (a
 * secret or any row made by a migration would be shared by every installation), it is cached whole
 * under a key of the migrations, and a data directory made from it is up to date, keeps what is
 * written to it, and recovers from a start killed half-way through making it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from './client.ts';
import { migrateToLatest } from './migrate.ts';
import { migratedTemplate, templateCachePath, templateKey } from './pglite-template.ts';

const KYSELY_TABLES = ['kysely_migration', 'kysely_migration_lock'];
/** Tables a migration sets up with their one row of state, not data (the viewing fold's cursor, at the start). */
const STATE_ROWS: Record<string, number> = { viewing_fold: 1 };

test('the template holds every migration and not a single row of data', async (t) => {
  const database = await openDatabase({ kind: 'pglite-memory' });
  t.after(() => database.close());
  assert.deepEqual(await migrateToLatest(database.db), [], 'nothing left to apply');
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(database.db);
  const names = tables.rows.map((row) => row.name);
  assert.ok(names.includes('workspaces') && names.includes('service_settings'), names.join(', '));
  for (const name of names.filter((n) => !KYSELY_TABLES.includes(n))) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(database.db);
    assert.equal(rows[0]?.n, STATE_ROWS[name] ?? 0, `${name} holds no data in the template`);
  }
});

test('the template is cached whole, under a key of the PGlite version and the migrations', async () => {
  const bytes = await migratedTemplate();
  const path = templateCachePath();
  assert.match(path, new RegExp(`pgdata-${templateKey()}\\.tar$`));
  assert.match(templateKey(), /^[0-9a-f]{24}$/);
  assert.equal(statSync(path).size, bytes.length, 'the cached file is the whole tarball');
  assert.equal(bytes.length % 512, 0);
});

test('an empty data directory is made from the template: up to date, and what is written stays', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cuepoint-template-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  // What a first start killed while extracting leaves behind: it is thrown away and made again.
  mkdirSync(join(dataDir, 'pgdata.partial', 'base'), { recursive: true });
  writeFileSync(join(dataDir, 'pgdata.partial', 'PG_VERSION'), 'half');
  mkdirSync(join(dataDir, 'pgdata'));

  const first = await openDatabase({ kind: 'pglite', dataDir });
  try {
    assert.equal(existsSync(join(dataDir, 'pgdata.partial')), false);
    assert.deepEqual(await migrateToLatest(first.db), [], 'created up to date');
    await first.db.insertInto('service_settings').values({ name: 'template-test', value: 'kept' }).execute();
  } finally {
    await first.close();
  }

  const second = await openDatabase({ kind: 'pglite', dataDir });
  try {
    const row = await second.db.selectFrom('service_settings').select('value').where('name', '=', 'template-test').executeTakeFirst();
    assert.deepEqual(row, { value: 'kept' }, 'a later open finds the data, not a new copy of the template');
  } finally {
    await second.close();
  }
});
