/**
 * migrateToLatest skips Kysely's migrator when every migration is applied (allApplied), and only then:
 * a database that has applied a migration this code does not know is still refused, as the migrator
 * refuses it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from './client.ts';
import { migrateToLatest } from './migrate.ts';

test('an up-to-date database applies nothing; one that applied an unknown migration is refused', async (t) => {
  const database = await openDatabase({ kind: 'pglite-memory' });
  t.after(() => database.close());
  assert.deepEqual(await migrateToLatest(database.db), []);
  await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', '2030-01-01T00:00:00.000Z')`.execute(
    database.db,
  );
  await assert.rejects(migrateToLatest(database.db), /previously executed migration 9999-from-a-newer-version is missing/);
});
