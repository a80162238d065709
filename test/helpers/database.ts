/**
 * A migrated database for tests: an in-memory PGlite copied from the migrated template (cached on
 * disk, see src/db/pglite-template.ts), or — when TEST_DATABASE_URL is set — a schema of its own on
 * that PostgreSQL, dropped afterwards. Test processes (the runner's workers) never share a database, so
 * they can run in parallel; within one, startTestApp shares one (see app.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testRedisUrl = process.env.REDIS_URL || undefined;

/** Whether this process has migrated an in-memory database yet (see below). */
let templateChecked = false;

export async function openTestDatabase(): Promise<DatabaseHandle & { schema?: string }> {
  if (!testDatabaseUrl) {
    const database = await openDatabase({ kind: 'pglite-memory' });
    // Migrating is a no-op on the template, and proves it is current. Every in-memory database of a
    // process is a copy of the same template bytes (pglite-template.ts keeps them), so the first proves
    // it for the rest; each check costs Kysely's introspection of every table twice (50 ms or more).
    if (!templateChecked) {
      await migrateToLatest(database.db);
      templateChecked = true;
    }
    return database;
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  // Kysely's migrator introspects every schema in the database, and fails if another test file drops
  // its schema meanwhile; creating, migrating and dropping test schemas one at a time avoids that.
  const database = await withSchemaLock(async (admin) => {
    await admin.query(`create schema ${schema}`);
    const opened = await openDatabase({ kind: 'postgres', url: testDatabaseUrl, schema, poolSize: 20 });
    await migrateToLatest(opened.db, schema);
    return opened;
  });
  return {
    ...database,
    schema,
    close: async () => {
      await database.close();
      await withSchemaLock((admin) => admin.query(`drop schema ${schema} cascade`));
    },
  };
}

async function withSchemaLock<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`select pg_advisory_lock(hashtext('cuepoint test schemas'))`);
    return await work(admin);
  } finally {
    await admin.end();
  }
}
