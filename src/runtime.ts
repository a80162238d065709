/**
 * Opens what a process needs from its configuration: the database (migrated) and, when configured,
 * Redis. Shared by the server and the CLI commands so both open things the same way.
 */
import { Redis } from 'ioredis';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';

export async function openConfiguredDatabase(config: Config, options: { migrate: boolean }): Promise<DatabaseHandle> {
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  if (options.migrate) {
    try {
      await migrateToLatest(database.db);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

/**
 * A Redis client that fails fast: no offline queue and a short command timeout, so a Redis outage
 * costs a request milliseconds (and the rate limiter falls back to memory) instead of hanging it.
 */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  redis.on('error', () => {}); // reconnects by itself; the limiter reports failures per request
  return redis;
}
