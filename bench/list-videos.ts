/**
 * `npm run bench` (or `npm run bench -- list`): full-stack `GET /v1/videos?limit=50` with a valid key,
 * against a bare Fastify route running the same SQL on the same pool, same machine, same run
 * (DESIGN §9). Prints requests/s, p50
 * and p99 of both and their ratio against the 0.8 target, and writes bench/results/<date>.json.
 * Exits 0 whatever the verdict: it is a report, not a gate.
 *
 * Settings (environment): BENCH_DATABASE_URL or DATABASE_URL (a server where we may create and drop a
 * database), BENCH_DURATION (s per measurement, default 5), BENCH_WARMUP (s, default 3), BENCH_ROUNDS
 * (default 5), BENCH_CONNECTIONS (default 10), BENCH_VIDEOS (default 200), BENCH_PIN=1 to pin the
 * server and the load generator to cores of their own.
 */
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { createBenchDatabase } from './bench-database.ts';
import { checkSameAnswer, compare, summarise } from './compare.ts';
import { pinning, pinServer } from './pinning.ts';
import { createPostgresCpuMeter } from './postgres-cpu.ts';
import { printReport, type Report, writeReport } from './report.ts';
import { type RunningServer, startBareRoute, startFullStack } from './servers.ts';

const TARGET = 0.8;
const POOL_SIZE = 10;

const numberSetting = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const settings = () => ({
  databaseUrl: process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  durationSeconds: numberSetting('BENCH_DURATION', 5),
  warmupSeconds: numberSetting('BENCH_WARMUP', 3),
  rounds: numberSetting('BENCH_ROUNDS', 5),
  connections: numberSetting('BENCH_CONNECTIONS', 10),
  videos: numberSetting('BENCH_VIDEOS', 200),
});

export async function runListVideosBenchmark(log: (line: string) => void): Promise<void> {
  const config = settings();
  pinServer();
  const startedAt = new Date();
  const loadBefore = loadavg();
  const bench = await createBenchDatabase(config.databaseUrl, config.videos, POOL_SIZE);
  // An interrupted run still drops its database.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void bench.drop().finally(() => process.exit(130)));
  let full: RunningServer | undefined;
  let bare: RunningServer | undefined;
  try {
    full = await startFullStack(bench.database);
    bare = await startBareRoute(bench.database, bench.workspaceId);
    const targets = {
      bare: { url: bare.url, headers: {} },
      full: { url: full.url, headers: { authorization: `Bearer ${bench.apiKey}` } },
    };
    await checkSameAnswer(targets.bare, targets.full);
    const rounds = await compare(targets, { ...config, meter: createPostgresCpuMeter(bench.database.db), log });

    const bareSummary = summarise(rounds.map((r) => r.bare));
    const fullSummary = summarise(rounds.map((r) => r.full));
    const postgres = await sql<{ server_version: string }>`show server_version`.execute(bench.database.db);
    const report: Report = {
      target: TARGET,
      configuration: {
        route: 'GET /v1/videos?limit=50',
        videos_seeded: config.videos,
        connections: config.connections,
        duration_seconds: config.durationSeconds,
        warmup_seconds: config.warmupSeconds,
        rounds: config.rounds,
        pool_size: POOL_SIZE,
        postgres: postgres.rows[0]?.server_version ?? 'unknown',
        pinning: pinning() ?? 'none',
        load_generator: 'autocannon 9, own process',
        // Other work on the machine moves req/s far more than it moves CPU per request.
        load_average_before: loadBefore,
        load_average_after: loadavg(),
      },
      bare: bareSummary,
      full: fullSummary,
      ratio: fullSummary.requestsPerSecond / bareSummary.requestsPerSecond,
      rounds,
    };
    printReport(report);
    log(`report written to ${writeReport(report, startedAt)}`);
  } finally {
    await full?.close();
    await bare?.close();
    await bench.drop();
  }
}
