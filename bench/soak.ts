/**
 * `npm run bench -- soak`: does the server's memory level off under a steady, realistic load, and
 * come back down when the load stops (issue 26)? A real service process (`cuepoint start --role
 * all`, bench/collect-target.ts) on the embedded PGlite, or on a throwaway PostgreSQL database when
 * BENCH_DATABASE_URL or DATABASE_URL is set (with Redis when REDIS_URL is), 20 ready videos with a
 * lead form each, and a steady mixed load from this process (bench/soak-traffic.ts: watch pages,
 * viewing batches, lead forms, REST reads and writes, MCP tool calls; an open loop at a moderate rate,
 * not the server's maximum). The server's RSS is read from /proc every BENCH_SOAK_SAMPLE_SECONDS
 * through a warm-up, BENCH_SOAK_MINUTES of load and BENCH_SOAK_IDLE_SECONDS of idle; its heap is not
 * (the service has no endpoint for it, and a benchmark adds none), but the resident part of its
 * WebAssembly memories is, from /proc/<pid>/smaps: on the embedded database, PGlite's own. The report: RSS at the start of the
 * load, at each minute, its max, at the end of the load and after the idle; the growth a minute over
 * the first and the last third of the load, and the verdict from them and the sawtooth's peaks
 * (bench/soak-memory.ts), requests/s, the server's CPU, the
 * answers of each kind of request, and the load average.
 *
 * Every answer is checked (bench/soak-requests.ts). A 429 is counted, not failed: public endpoints are
 * limited per address and the key per minute. A 5xx, no answer, or any other wrong answer fails the
 * run (exit 1), as collect fails on a lost batch. Whether memory levels off is a verdict in the
 * report, not a gate.
 *
 * Settings (environment): BENCH_SOAK_MINUTES (default 15), BENCH_SOAK_IDLE_SECONDS (60),
 * BENCH_SOAK_WARMUP_SECONDS (60: the service's first minute, its code compiled and caches filled, is
 * not the curve), BENCH_SOAK_SAMPLE_SECONDS (10), BENCH_SOAK_RATE (page views a second, 2: about 17
 * requests a second in all), BENCH_SOAK_VIDEOS (20), BENCH_SOAK_NODE_OPTIONS (given to the service as
 * NODE_OPTIONS, such as --heapsnapshot-signal=SIGUSR2 to look into a curve that keeps growing).
 * Writes bench/results/<date>-soak.json (on PostgreSQL: <date>-soak-postgresql.json).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { numberSetting } from './bench-settings.ts';
import { startTarget } from './collect-target.ts';
import { describeMachine } from './machine.ts';
import { writeResultFile } from './result-file.ts';
import { cpuSeconds } from './service-process.ts';
import { type Curve, describeCurve, LEVELLED_MIB_PER_MINUTE, sampleMemory } from './soak-memory.ts';
import { api } from './soak-requests.ts';
import { type Counts, snapshot, startTraffic, totals } from './soak-traffic.ts';
import { round3, snakeKeys } from './throwaway-database.ts';

const settings = () => {
  const postgresUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
  return {
    postgresUrl,
    redisUrl: postgresUrl ? process.env.REDIS_URL || undefined : undefined,
    minutes: numberSetting('BENCH_SOAK_MINUTES', 15),
    idleSeconds: numberSetting('BENCH_SOAK_IDLE_SECONDS', 60),
    warmupSeconds: numberSetting('BENCH_SOAK_WARMUP_SECONDS', 60),
    sampleSeconds: numberSetting('BENCH_SOAK_SAMPLE_SECONDS', 10),
    pageViewsPerSecond: numberSetting('BENCH_SOAK_RATE', 2),
    videos: Math.floor(numberSetting('BENCH_SOAK_VIDEOS', 20)),
    nodeOptions: process.env.BENCH_SOAK_NODE_OPTIONS || undefined,
  };
};

/** The API key's limit, as a pro plan has it, whichever workspace the database starts with. */
const KEY_REQUESTS_PER_MINUTE = '600';

export async function runSoakBenchmark(log: (line: string) => void): Promise<void> {
  const config = settings();
  const startedAt = new Date();
  const loadAverages: Record<string, number[]> = { before: loadavg() };
  const target = await startTarget({
    database: config.postgresUrl ? 'postgresql' : 'embedded',
    postgresUrl: config.postgresUrl ?? '',
    synchronousCommit: 'on',
    processes: 1,
    videos: config.videos,
    env: {
      CUEPOINT_SECRET: randomBytes(32).toString('base64url'),
      CUEPOINT_RATE_LIMIT: KEY_REQUESTS_PER_MINUTE,
      ...(config.redisUrl ? { REDIS_URL: config.redisUrl } : {}),
      ...(config.nodeOptions ? { NODE_OPTIONS: config.nodeOptions } : {}),
    },
  });
  const { service } = target;
  const pool = new Pool(service.url, { connections: 32, keepAliveTimeout: 60_000 });
  try {
    const database = target.kind === 'embedded' ? 'embedded PGlite' : `PostgreSQL${config.redisUrl ? ' and Redis' : ''}`;
    log(`\nsoak benchmark: server pid ${service.pid} (cuepoint start --role all, ${database})`);
    for (const video of target.videos) {
      const answer = await api(service.apiKey).enableLeadForm(pool, video.id);
      if (answer.verdict !== 'ok') throw new Error(`could not turn on the lead form of ${video.id}: ${answer.detail}`);
    }
    let loadStart = performance.now() + config.warmupSeconds * 1000;
    const sampler = sampleMemory(service.pid, config.sampleSeconds, () => loadStart);
    const traffic = startTraffic({
      pool,
      apiKey: service.apiKey,
      videos: target.videos,
      pageViewsPerSecond: config.pageViewsPerSecond,
      runId: randomBytes(4).toString('hex'),
    });
    log(
      `${config.pageViewsPerSecond} page views/s on ${config.videos} videos: ${config.warmupSeconds} s warm-up, ${config.minutes} min of load, ${config.idleSeconds} s idle; RSS every ${config.sampleSeconds} s`,
    );
    await sleep(config.warmupSeconds * 1000);

    loadStart = performance.now();
    sampler.setPhase('load');
    const start = sampler.take('load');
    const countsAtStart = snapshot(traffic.tally.counts);
    const cpuAtStart = cpuSeconds(service.pid);
    loadAverages.load_start = loadavg();
    log(`  load start    RSS ${start.rssMib.toFixed(1)} MiB (load average ${loads(loadAverages.load_start)})`);
    const loadMs = config.minutes * 60_000;
    for (let minute = 1; minute * 60_000 <= loadMs; minute++) {
      await sleep(loadStart + minute * 60_000 - performance.now());
      const now = sampler.take('load');
      log(
        `  minute ${String(minute).padStart(3)}    RSS ${now.rssMib.toFixed(1)} MiB, ${totals(traffic.tally.counts).requests} requests so far (load average ${loads(loadavg())})`,
      );
    }
    await sleep(Math.max(0, loadStart + loadMs - performance.now()));
    const end = sampler.take('load');
    const countsAtEnd = snapshot(traffic.tally.counts);
    const cpuAtEnd = cpuSeconds(service.pid);
    loadAverages.load_end = loadavg();
    await traffic.stop();
    log(`  load end      RSS ${end.rssMib.toFixed(1)} MiB; idle for ${config.idleSeconds} s`);

    sampler.setPhase('idle');
    await sleep(config.idleSeconds * 1000);
    sampler.take('idle');
    sampler.stop();
    loadAverages.idle_end = loadavg();

    const loadSeconds = end.seconds;
    const curve = describeCurve(sampler.samples, loadSeconds);
    const inLoad = totals(difference(countsAtEnd, countsAtStart));
    const whole = totals(traffic.tally.counts);
    const failures = whole.server_error + whole.network + whole.wrong;
    const report = {
      benchmark: 'soak: the server’s memory under a steady mixed load, and after it',
      date: startedAt.toISOString(),
      machine: describeMachine(),
      configuration: {
        server: `cuepoint start --role all, separate process, ${database}`,
        load_generator: 'bench/soak-traffic.ts in the benchmark’s process: an open loop at a fixed rate, undici Pool of 32 connections',
        page_views_per_second: config.pageViewsPerSecond,
        videos: config.videos,
        key_requests_per_minute: Number(KEY_REQUESTS_PER_MINUTE),
        warmup_seconds: config.warmupSeconds,
        load_minutes: config.minutes,
        idle_seconds: config.idleSeconds,
        sample_seconds: config.sampleSeconds,
        node_options: config.nodeOptions ?? null,
        load_average: Object.fromEntries(Object.entries(loadAverages).map(([k, v]) => [k, v.map(round3)])),
      },
      memory: roundDeep(curve),
      heap: null,
      levelled_off_below_mib_per_minute: LEVELLED_MIB_PER_MINUTE,
      throughput: {
        requests_per_second: round3(inLoad.requests / loadSeconds),
        requests_in_load: inLoad.requests,
        server_cpu_cores: round3((cpuAtEnd - cpuAtStart) / loadSeconds),
        server_cpu_micros_per_request: round3(((cpuAtEnd - cpuAtStart) * 1e6) / Math.max(1, inLoad.requests)),
      },
      answers: { whole_run: traffic.tally.counts, totals: whole, skipped: traffic.tally.skipped, examples: traffic.tally.examples },
      samples: sampler.samples.map((s) => roundDeep(s)),
      verdict: failures > 0 ? 'failed' : curve.levelledOff ? 'levelled off' : 'still growing',
    };
    printSoak(log, curve, report.throughput, traffic.tally.counts, traffic.tally.skipped, loadAverages);
    log(`report written to ${writeResultFile(snakeKeys(report), startedAt, target.kind === 'embedded' ? 'soak' : 'soak-postgresql')}`);
    if (failures > 0) {
      log(`FAIL: ${failures} answer(s) were a 5xx, missing or wrong:\n  ${traffic.tally.examples.join('\n  ')}`);
      process.exitCode = 1;
    }
  } finally {
    await pool.close();
    await target.release();
  }
}

function difference(after: Counts, before: Counts): Counts {
  const result = snapshot(after);
  for (const [kind, verdicts] of Object.entries(result))
    for (const verdict of Object.keys(verdicts) as (keyof typeof verdicts)[]) verdicts[verdict] -= before[kind as keyof Counts][verdict];
  return result;
}

function roundDeep<T>(value: T): T {
  if (typeof value === 'number') return (Math.round(value * 100) / 100) as T;
  if (Array.isArray(value)) return value.map(roundDeep) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundDeep(v)])) as T;
}

const loads = (values: number[] | undefined) => (values ?? []).map((v) => v.toFixed(2)).join(' ');

function printSoak(
  log: (line: string) => void,
  curve: Curve,
  throughput: { requests_per_second: number; server_cpu_cores: number; server_cpu_micros_per_request: number },
  counts: Counts,
  skipped: number,
  loadAverages: Record<string, number[]>,
): void {
  const mib = (value: number) => `${value.toFixed(1)} MiB`;
  const rate = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(2)} MiB/min`;
  log('');
  log('server RSS');
  log(`  at load start       ${mib(curve.startMib)}`);
  if (curve.perMinuteMib.length > 0) log(`  each minute         ${curve.perMinuteMib.map((m) => m.rssMib.toFixed(1)).join(', ')}`);
  log(`  max                 ${mib(curve.maxMib)}`);
  const grew = curve.endOfLoadMib - curve.startMib;
  log(`  at load end         ${mib(curve.endOfLoadMib)} (${grew >= 0 ? '+' : ''}${grew.toFixed(1)} MiB since the start)`);
  log(`  after idle          ${mib(curve.afterIdleMib)}`);
  const wasm = curve.wasmMib;
  if (wasm.endOfLoad > 0)
    log(
      `  of it, WebAssembly  ${mib(wasm.start)} at the start, ${mib(wasm.endOfLoad)} at the end, ${mib(wasm.afterIdle)} after idle (PGlite's memory on the embedded database; under 1 MiB is undici's HTTP parser)`,
    );
  log(
    `  growth              first third ${rate(curve.growthMibPerMinute.firstThird)}, last third ${rate(curve.growthMibPerMinute.lastThird)} (anonymous: ${rate(curve.anonGrowthMibPerMinute.firstThird)}, ${rate(curve.anonGrowthMibPerMinute.lastThird)})`,
  );
  const { first, last } = curve.thirds;
  log(
    `  first third         ${mib(first.minMib)} to ${mib(first.maxMib)}; last third ${mib(last.minMib)} to ${mib(last.maxMib)} (the sawtooth of the heap)`,
  );
  log(
    `  verdict             ${curve.levelledOff ? 'levelled off' : 'still growing'}: the last third's peak is ${curve.peakOverEarlierMib >= 0 ? '+' : ''}${curve.peakOverEarlierMib.toFixed(1)} MiB over the highest before it, its slope ${rate(curve.growthMibPerMinute.lastThird)} (levelled off: either below ${LEVELLED_MIB_PER_MINUTE} MiB per minute)`,
  );
  log('');
  log(
    `requests/s            ${throughput.requests_per_second.toFixed(1)} (server ${throughput.server_cpu_cores.toFixed(2)} cores, ${throughput.server_cpu_micros_per_request.toFixed(0)} µs a request)`,
  );
  log('answers (whole run)   ok / 429 / 5xx / no answer / wrong');
  for (const [kind, v] of Object.entries(counts))
    log(`  ${kind.padEnd(20)}${[v.ok, v.limited, v.server_error, v.network, v.wrong].map((n) => String(n).padStart(7)).join('')}`);
  if (skipped > 0) log(`  skipped             ${skipped} (too many unanswered)`);
  log(
    `load average          ${Object.entries(loadAverages)
      .map(([k, v]) => `${k} ${loads(v)}`)
      .join('; ')}`,
  );
  log('');
}
