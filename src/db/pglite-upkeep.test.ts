/**
 * The embedded database's upkeep does what autovacuum does on PostgreSQL: every table is analyzed on
 * the first pass after opening, then only the tables that changed past autovacuum's thresholds are
 * analyzed, and the ones with enough dead rows vacuumed; the planner then knows the tables' sizes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from './client.ts';
import { embeddedUpkeep } from './pglite-upkeep.ts';
import type { Database } from './tables/index.ts';

/** The planner's estimate of a table's rows (-1: never analyzed). */
async function estimatedRows(db: Kysely<Database>, table: string): Promise<number> {
  const { rows } = await sql<{ reltuples: number }>`select reltuples::float8 as reltuples from pg_class where relname = ${table}`.execute(
    db,
  );
  return Number(rows[0]?.reltuples);
}

test('upkeep analyzes every table first, then the changed ones, and vacuums a table of dead rows', async (t) => {
  const database = await openDatabase({ kind: 'pglite-memory' });
  t.after(() => database.close());
  const { db } = database;
  await sql`create table upkeep_probe (id int primary key, note text)`.execute(db);
  await sql`insert into upkeep_probe select g, 'row ' || g from generate_series(1, 1000) g`.execute(db);
  assert.equal(await estimatedRows(db, 'upkeep_probe'), -1, 'nothing analyzes on its own');
  const upkeep = embeddedUpkeep(db);

  const first = await upkeep();
  assert.ok(first.analyzed.includes('upkeep_probe'));
  assert.ok(first.analyzed.includes('videos'), 'the first pass analyzes every table, changed or not');
  assert.equal(await estimatedRows(db, 'upkeep_probe'), 1000);

  assert.deepEqual(await upkeep(), { analyzed: [], vacuumed: [] }, 'nothing changed since: nothing to do');

  await sql`insert into upkeep_probe select g, 'few' from generate_series(1001, 1040) g`.execute(db);
  assert.deepEqual(await upkeep(), { analyzed: [], vacuumed: [] }, '40 new rows are under 50 + 10% of 1,000');

  await sql`insert into upkeep_probe select g, 'more' from generate_series(1041, 1200) g`.execute(db);
  assert.deepEqual(await upkeep(), { analyzed: ['upkeep_probe'], vacuumed: [] });
  assert.equal(await estimatedRows(db, 'upkeep_probe'), 1200);

  await sql`delete from upkeep_probe where id > 600`.execute(db);
  assert.deepEqual(await upkeep(), { analyzed: ['upkeep_probe'], vacuumed: ['upkeep_probe'] });
  assert.equal(await estimatedRows(db, 'upkeep_probe'), 600);
  const { rows } = await sql<{
    dead: number;
  }>`select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'upkeep_probe'`.execute(db);
  assert.equal(rows[0]?.dead, 0, 'the dead rows are reclaimed');
});
