/**
 * What the read benchmarks (analytics, routes) share: a throwaway PostgreSQL database, a real
 * service process (`cuepoint start --role api`, optionally CPU-profiled) on it with a rate limit out
 * of the way, one keep-alive HTTP connection to it, a bench pool for seeding, and the one way to
 * take it all down again, on success, failure or Ctrl-C.
 */
import { Pool } from 'undici';
import { profilingFromEnvironment } from './cpu-profile.ts';
import { startService } from './service-process.ts';
import { type BenchPool, createThrowawayDatabase, openBenchPool, round3 } from './throwaway-database.ts';

export async function startReadBench(databaseUrl: string, env: Record<string, string> = {}) {
  const profiling = profilingFromEnvironment();
  const throwaway = await createThrowawayDatabase(databaseUrl);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void throwaway.drop().finally(() => process.exit(130)));
  const service = await startService({
    args: ['--role', 'api'],
    env: { DATABASE_URL: throwaway.url, CUEPOINT_RATE_LIMIT: '1000000', ...env, ...profiling?.env },
  }).catch(async (error) => {
    await throwaway.drop();
    throw error;
  });
  const pool = new Pool(service.url, { connections: 1, pipelining: 1, keepAliveTimeout: 60_000 });
  let poolClosed: Promise<void> | undefined;
  const closePool = () => {
    poolClosed ??= pool.close();
    return poolClosed;
  };
  let database: BenchPool | undefined;
  return {
    profiling,
    throwaway,
    service,
    pool,
    /** The bench's own connections to the throwaway database, opened on first use. */
    database: () => {
      database ??= openBenchPool(throwaway.url);
      return database;
    },
    /** Stops the service first, so its CPU profile is written before it is read. */
    stopService: async () => {
      await closePool();
      await service.stop();
    },
    /** Everything down, the database dropped; safe after stopService and after a failure. */
    tearDown: async () => {
      await closePool();
      await database?.close();
      await service.stop();
      await throwaway.drop();
      profiling?.cleanup();
    },
  };
}

/** Load averages as printed beside every figure. */
export const loads = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ');

export function mapRound<T extends Record<string, number>>(values: T): T {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, round3(v)])) as T;
}
