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

export async function openTestDatabase(): Promise<DatabaseHandle & { schema?: string }> {
  if (!testDatabaseUrl) {
    const database = await openDatabase({ kind: 'pglite-memory' });
    await migrateToLatest(database.db);
    return database;
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create schema ${schema}`);
  const database = await openDatabase({ kind: 'postgres', url: testDatabaseUrl, schema, poolSize: 20 });
  await migrateToLatest(database.db);
  return {
    ...database,
    schema,
    close: async () => {
      await database.close();
      await adminQuery(`drop schema ${schema} cascade`);
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
