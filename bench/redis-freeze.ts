/**
 * `node bench/redis-freeze.ts`: what a frozen Redis costs each API request. Starts a redis-server of
 * its own on a free port and the app (in-memory database, rate limits in that Redis) on a loopback
 * port, then sends `GET /v1/workspace` from BENCH_CONNECTIONS clients for BENCH_PHASE_MS in three
 * phases: Redis healthy, Redis frozen (SIGSTOP), Redis thawed (SIGCONT). Prints requests/s and the
 * p50, p99 and slowest answer of each phase, with the load average. A measurement, not a test: the
 * fault tests (test/faults/redis-outages.test.ts) assert the behaviour.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createWorkspace } from '../src/create-workspace.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { buildDependencies } from '../src/dependencies.ts';
import { connectRedisReady } from '../src/runtime.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 5000);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  await new Promise<void>((ok) => server.close(() => ok()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const dir = mkdtempSync(join(tmpdir(), 'cuepoint-redis-bench-'));
const redisPort = await freePort();
const redisServer = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
  stdio: 'ignore',
});
await sleep(300);
const redis = await connectRedisReady(`redis://127.0.0.1:${redisPort}`);
const database = await openDatabase({ kind: 'pglite-memory' });
await migrateToLatest(database.db);
const { apiKey } = await createWorkspace(database.db, { name: 'Bench', plan: 'business', now: new Date() });
const config = loadConfig({
  CUEPOINT_SECRET: 'x'.repeat(32),
  PUBLIC_URL: 'http://localhost:3000',
  CUEPOINT_DATA_DIR: dir,
  CUEPOINT_RATE_LIMIT: '1000000',
  CUEPOINT_FFMPEG: 'off',
});
const app = await buildApp(await buildDependencies(config, { database, redis }));
const url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/v1/workspace`;

async function phase(name: string) {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const end = performance.now() + PHASE_MS;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const began = performance.now();
        const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
        await response.arrayBuffer();
        latencies.push(performance.now() - began);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(1);
  process.stdout.write(
    `${name.padEnd(14)} ${String(latencies.length).padStart(6)} requests  ${(latencies.length / (PHASE_MS / 1000)).toFixed(1).padStart(7)} req/s  ` +
      `p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  slowest ${(latencies.at(-1) ?? 0).toFixed(1)} ms  statuses ${JSON.stringify(statuses)}  ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n`,
  );
}

try {
  process.stdout.write(`${CONNECTIONS} connections, ${PHASE_MS} ms per phase\n`);
  await phase('warm-up');
  await phase('Redis healthy');
  redisServer.kill('SIGSTOP');
  await phase('Redis frozen');
  redisServer.kill('SIGCONT');
  await phase('Redis thawed');
} finally {
  await app.close();
  redis.disconnect();
  await database.close();
  redisServer.kill('SIGCONT');
  redisServer.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
