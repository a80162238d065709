/**
 * A PostgreSQL database of its own for one process-level test, created on the server that
 * TEST_DATABASE_URL names and dropped when the test ends. A whole database rather than a schema,
 * because the service takes a plain DATABASE_URL; other tests' rows can never be seen.
 */
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { onCleanup } from './server-process.ts';

/** The DATABASE_URL of a fresh, empty database (not yet migrated: the service does that). */
export async function scratchDatabase(t: TestContext, adminUrl: string): Promise<string> {
  const name = `cp_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  // Registered before the servers that use it, so it runs after they are stopped; `force` covers
  // connections a killed process left behind.
  onCleanup(t, () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
