/**
 * Opens what a process needs from its configuration: the database (migrated) and, when configured,
 * Redis. Shared by the server and the CLI commands so both open things the same way.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { MAX_REDIS_TIMEOUT_MS } from './core/pipeline/rate-limit.ts';
import { describeUnavailable } from './core/pipeline/unavailable.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';

/** PostgreSQL could not be reached when the process started: a setting to check, not a bug. */
export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

export async function openConfiguredDatabase(config: Config, options: { migrate: boolean }): Promise<DatabaseHandle> {
  const url = config.databaseUrl;
  if (!url) {
    const embedded = await openDatabase({ kind: 'pglite', dataDir: config.dataDir });
    if (options.migrate) await migrateOrClose(embedded, url);
    return embedded;
  }
  if (options.migrate) {
    // On a connection of its own with no statement timeout: creating an index on a large table may
    // rightly take longer than any request should. The connections that serve requests are bounded.
    const migrating = await openDatabase({ kind: 'postgres', url });
    await migrateOrClose(migrating, url);
    await migrating.close();
  }
  return openDatabase({ kind: 'postgres', url, timeoutMs: config.dbTimeoutMs });
}

async function migrateOrClose(database: DatabaseHandle, url: string | undefined): Promise<void> {
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw unreachable(error, url) ?? error;
  }
}

function unreachable(error: unknown, url: string | undefined): DatabaseUnreachableError | undefined {
  if (!url || !describeUnavailable(error)) return undefined;
  const { hostname, port } = new URL(url);
  const reason = error instanceof Error ? error.message : String(error);
  return new DatabaseUnreachableError(
    `Cannot reach PostgreSQL at ${hostname}:${port || 5432} (from DATABASE_URL): ${reason}. Check that the server is running and that DATABASE_URL is right.`,
  );
}

/**
 * A Redis client that fails fast: with no offline queue a stopped Redis fails a command at once. A
 * hung one is bounded by the rate limiter itself (CUEPOINT_REDIS_TIMEOUT_MS, 50 ms, then its circuit
 * breaker); the command timeout here only clears commands that Redis never answers, so they do not
 * pile up, and it sits above the longest limiter bound allowed so it never decides first.
 */
export function connectRedis(url: string): Redis {
  // Loaded only when Redis is configured: ioredis is 39 files that a start without it need not read.
  const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: MAX_REDIS_TIMEOUT_MS + 1000,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  redis.on('error', () => {}); // reconnects by itself; the limiter's circuit breaker reports the outage
  return redis;
}

/**
 * Connects and waits (up to `timeoutMs`) until Redis answers, so the first requests share the bucket
 * instead of falling back to memory while the connection is still opening. A Redis that is down
 * does not stop start-up: requests are limited per process until it is back.
 */
export async function connectRedisReady(url: string, timeoutMs = 3000): Promise<Redis> {
  const redis = connectRedis(url);
  if (redis.status === 'ready') return redis;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return redis;
}
