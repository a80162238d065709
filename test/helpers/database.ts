/**
 * A fresh, migrated database for one test: an in-memory PGlite by default, or — when
 * TEST_DATABASE_URL is set — a schema of its own on that PostgreSQL, dropped afterwards. Test files
 * therefore never share rows and can run in parallel.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testRedisUrl = process.env.REDIS_URL || undefined;

// Booting PGlite and running initdb costs seconds; a migrated snapshot loads in a fraction of that.
// Made once per test process, copied for every test.
let migratedSnapshot: Promise<Blob | File> | undefined;

function snapshotOnce(): Promise<Blob | File> {
  migratedSnapshot ??= (async () => {
    const template = await openDatabase({ kind: 'pglite-memory' });
    await migrateToLatest(template.db);
    const snapshot = await template.snapshot?.();
    await template.close();
    if (!snapshot) throw new Error('PGlite could not dump its data directory');
    return snapshot;
  })();
  return migratedSnapshot;
}

export async function openTestDatabase(): Promise<DatabaseHandle & { schema?: string }> {
  if (!testDatabaseUrl) {
    const database = await openDatabase({ kind: 'pglite-memory', snapshot: await snapshotOnce() });
    // Migrating is a no-op on the snapshot, and proves it is current.
    await migrateToLatest(database.db);
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
