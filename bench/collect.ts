/**
 * `npm run bench -- collect`: viewing collection throughput, how soon what was collected shows in the
 * analytics, and proof that nothing acknowledged is lost. A real service process
 * (`cuepoint start --role all`, bench/service-process.ts) on a throwaway PostgreSQL database, or on
 * the embedded PGlite (BENCH_COLLECT_DATABASE=embedded), 20 ready videos (60–600 s) inserted straight
 * into it, and a load generator in a process of its own (bench/collect-load.ts) playing page views
 * through `POST /collect` with a fixed number of concurrent players, each sending its next batch as
 * soon as the last was answered (each page view from an address of its own, in X-Forwarded-For
 * through the service's one trusted proxy, 127.0.0.1): realistic batches (play + progress first,
 * then 2–6 events per "5 s", seeks, pauses, CTA clicks, early leavers, ~3% of batches resent
 * unchanged). After a warm-up, requests/s, events/s and latency are taken over a fixed window, with
 * the CPU time the server, PostgreSQL and the machine spent in it, and what the database backends
 * were waiting on (sampled every 100 ms).
 *
 * Freshness (bench/collect-freshness.ts): during the window, a probe in this process plays one page
 * view at a time on a video of its own, which the load never plays: a 2 s batch through
 * `POST /collect`, then `GET /v1/videos/{probe}/analytics` every ~20 ms until the view shows; the lag
 * from the 200 to that answer, p50/p90/p99/max over the window's probes, against the issue's target
 * (p50 and p99 ≤ 2 s). Its reads run on the same server and database as the load, so the window's CPU
 * and transaction figures include them (`analytics_requests` says how many). After the load stops,
 * the time the fold took to catch up: on PostgreSQL until no stored batch is past the fold's cursor;
 * on the embedded database, which the benchmark cannot open while the service runs, until one more
 * probe batch sent after the load shows in the analytics (the fold reads in commit order, so every
 * batch stored before it is folded by then).
 *
 * Then the database is counted against what the generator and the probe were told: acknowledged
 * batches (each (session, sequence) once, resends not) = rows in viewing_batches, none left unfolded;
 * the sum of the progress ranges sent = sum of watch_time_seconds in video_daily_stats (and
 * video_stats, workspace_daily_stats, and the sessions' played seconds), within float tolerance; page
 * views that played ≥ 1 s = views in every rollup; deliberate resends answered `duplicate: true`. The
 * probe's page views are in the same workspace, so they are added to what is expected. Any
 * difference is a loss: the verdict says `lost`, a FAIL line is printed and the process exits 1.
 * Writes bench/results/<date>-collect.json (embedded: <date>-collect-embedded.json).
 *
 * The embedded database (bench/collect-embedded.ts) belongs to the service process while it runs:
 * the benchmark prepares its data dir before the start (migrated, the workspace and its API key, the
 * videos) and counts it after the stop. PostgreSQL's own measurements (its CPU, backend waits,
 * pg_stat_database's transactions, rollbacks, deadlocks) are null there: PGlite runs inside the
 * server process, whose CPU includes it.
 *
 * Settings (environment): BENCH_COLLECT_DATABASE (postgresql, the default, or embedded),
 * BENCH_DATABASE_URL or DATABASE_URL (PostgreSQL only; default postgres://postgres@127.0.0.1:5432/test:
 * a server where a database may be created and dropped), BENCH_COLLECT_DURATION (s measured, default
 * 20), BENCH_COLLECT_WARMUP (s, default 5), BENCH_COLLECT_CONNECTIONS (concurrent players, default
 * 16), BENCH_COLLECT_VIDEOS (default 20), BENCH_COLLECT_PROCESSES (the service's --processes, default
 * 1; must be 1 on the embedded database), BENCH_COLLECT_FRESHNESS=off (no probe during the window,
 * for throughput figures without its reads; the catch-up probe of the embedded database still runs),
 * BENCH_CPU_PROF (1, or a directory to keep the .cpuprofile in: profile the service with --cpu-prof
 * and print where its time went), BENCH_COLLECT_SYNCHRONOUS_COMMIT=off (PostgreSQL only; an
 * experiment, never a way to run the service: the database's commits stop waiting for their WAL
 * flush, which shows what that wait costs; a crash could then lose acknowledged batches).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type Check, compareCounts, countDatabase, type DatabaseCounts, waitForFold } from './collect-database.ts';
import { createFreshnessProbe, type FreshnessFigures, type ProbeTally } from './collect-freshness.ts';
import type { LoadConfig, LoadResult } from './collect-load.ts';
import { BENCH_TRUSTED_PROXIES } from './collect-request.ts';
import { type CollectDatabase, startTarget } from './collect-target.ts';
import { printProfile, profilingFromEnvironment } from './cpu-profile.ts';
import { describeMachine } from './machine.ts';
import { createPostgresCpuMeter } from './postgres-cpu.ts';
import { writeResultFile } from './result-file.ts';
import { cpuSeconds } from './service-process.ts';
import { type BenchPool, busyShare, databaseCounters, machineCpu, round3, snakeKeys } from './throwaway-database.ts';

const LOAD_SCRIPT = fileURLToPath(new URL('./collect-load.ts', import.meta.url));
const RESEND_SHARE = 0.03;
const VIEWER_POOL = 5000;
/** How long the embedded database's fold may take to catch up after the load, as waitForFold allows PostgreSQL's. */
const CATCH_UP_LIMIT_MS = 120_000;

const numberSetting = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const databaseSetting = (): CollectDatabase => {
  const value = process.env.BENCH_COLLECT_DATABASE || 'postgresql';
  if (value === 'postgresql' || value === 'embedded') return value;
  throw new Error(`BENCH_COLLECT_DATABASE must be postgresql (the default) or embedded, not ${JSON.stringify(value)}`);
};

const settings = () => {
  const config = {
    database: databaseSetting(),
    databaseUrl: process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    durationSeconds: numberSetting('BENCH_COLLECT_DURATION', 20),
    warmupSeconds: numberSetting('BENCH_COLLECT_WARMUP', 5),
    connections: Math.floor(numberSetting('BENCH_COLLECT_CONNECTIONS', 16)),
    videos: Math.floor(numberSetting('BENCH_COLLECT_VIDEOS', 20)),
    processes: Math.floor(numberSetting('BENCH_COLLECT_PROCESSES', 1)),
    freshness: process.env.BENCH_COLLECT_FRESHNESS !== 'off',
    /** An experiment only: 'off' shows what waiting for the commit's WAL flush costs. Never how to run. */
    synchronousCommit: process.env.BENCH_COLLECT_SYNCHRONOUS_COMMIT === 'off' ? ('off' as const) : ('on' as const),
  };
  if (config.database === 'embedded' && config.processes !== 1)
    throw new Error(
      `BENCH_COLLECT_PROCESSES is ${config.processes}, but the embedded database can be open in one process only: it must be 1 with BENCH_COLLECT_DATABASE=embedded`,
    );
  if (config.database === 'embedded' && config.synchronousCommit === 'off')
    throw new Error(
      'BENCH_COLLECT_SYNCHRONOUS_COMMIT=off is a PostgreSQL experiment: it does not apply to BENCH_COLLECT_DATABASE=embedded',
    );
  return config;
};

export async function runCollectBenchmark(log: (line: string) => void): Promise<void> {
  const config = settings();
  const embedded = config.database === 'embedded';
  const startedAt = new Date();
  const loadBefore = loadavg();
  const secret = randomBytes(32).toString('base64url'); // 43 characters
  const profiling = profilingFromEnvironment();
  const target = await startTarget({
    database: config.database,
    postgresUrl: config.databaseUrl,
    synchronousCommit: config.synchronousCommit,
    processes: config.processes,
    videos: config.videos,
    env: { CUEPOINT_SECRET: secret, CUEPOINT_RATE_LIMIT: '1000000', CUEPOINT_TRUSTED_PROXIES: BENCH_TRUSTED_PROXIES, ...profiling?.env },
  });
  const service = target.service;
  const database = target.kind === 'postgresql' ? target.pool : undefined;
  const probe = createFreshnessProbe({ url: service.url, secret, apiKey: service.apiKey, videoId: target.probeVideoId });
  try {
    log(
      target.kind === 'postgresql'
        ? `\ncollect benchmark: server pid ${service.pid} (cuepoint start --role all, PostgreSQL database ${target.throwaway.name})`
        : `\ncollect benchmark: server pid ${service.pid} (cuepoint start --role all, embedded PGlite in ${target.dataDir.dataDir})`,
    );
    const meter = database && createPostgresCpuMeter(database.db);
    const countersBefore = database && (await databaseCounters(database));

    log(
      `${config.connections} players, ${config.videos} videos, ${config.warmupSeconds} s warm-up + ${config.durationSeconds} s measured (load average ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')})`,
    );
    const loadConfig: LoadConfig = {
      url: service.url,
      secret,
      videos: target.videos,
      connections: config.connections,
      warmupSeconds: config.warmupSeconds,
      durationSeconds: config.durationSeconds,
      resendShare: RESEND_SHARE,
      viewerPool: VIEWER_POOL,
      seed: 2026,
    };
    let windowFigures: Awaited<ReturnType<typeof measureWindow>> | undefined;
    let windowDone: Promise<void> | undefined;
    let probesDone: Promise<void> = Promise.resolve();
    let endWindow = () => {};
    const windowEnded = new Promise<void>((ok) => {
      endWindow = ok;
    });
    const result = await runLoad(loadConfig, (mark, loaderPid) => {
      if (mark === 'start') {
        windowDone = measureWindow(database, service.pid, loaderPid, meter, windowEnded).then((figures) => {
          windowFigures = figures;
        });
        if (config.freshness) probesDone = probe.runUntil(windowEnded);
      } else endWindow();
    });
    const loadStoppedAt = performance.now();
    endWindow();
    await windowDone;
    const window = windowFigures;
    if (!window) throw new Error('the load generator never reported its measurement window');

    // The worker folds what was stored; the counts are taken once it has caught up. The probe in
    // flight at the window's end finishes first: its batch is folded once it has been seen.
    let drainSeconds: number;
    let countersAfter: Awaited<ReturnType<typeof databaseCounters>> | undefined;
    let counted: DatabaseCounts | undefined;
    if (database) {
      [drainSeconds] = await Promise.all([waitForFold(database.db), probesDone]);
      // Statistics reach pg_stat_database when a backend goes idle (and at most every second).
      await new Promise((ok) => setTimeout(ok, 1500));
      countersAfter = await databaseCounters(database);
      counted = await countDatabase(database.db, service.workspaceId);
    } else {
      await probesDone;
      const marker = await probe.probeOnce(CATCH_UP_LIMIT_MS);
      if (marker.seenAt === undefined) throw new Error(`the worker did not fold the stored batches within ${CATCH_UP_LIMIT_MS / 1000} s`);
      drainSeconds = (marker.seenAt - loadStoppedAt) / 1000;
    }
    const freshness: FreshnessFigures | null = config.freshness ? probe.figures() : null;
    const loadAfter = loadavg();

    await probe.close();
    await service.stop();
    if (target.kind === 'embedded') counted = await target.dataDir.count();
    if (!counted) throw new Error('the database was not counted');
    const checks = compareCounts(result.run, probe.tally, counted);
    const lost = checks.filter((c) => !c.ok);
    const requests = result.window.requests;
    const profile = profiling?.summarise();
    const perBatch = (count: number) => count / Math.max(1, result.run.deliveredBatches + result.run.deliberateResends);

    const report = {
      benchmark: embedded
        ? 'viewing collection: POST /collect throughput on the embedded database (PGlite), 0 lost'
        : 'viewing collection: POST /collect throughput on PostgreSQL, 0 lost',
      date: startedAt.toISOString(),
      machine: describeMachine(),
      configuration: {
        route: 'POST /collect',
        database: embedded ? 'embedded PGlite' : 'PostgreSQL',
        server: embedded
          ? 'cuepoint start --role all --processes 1, separate process, embedded PGlite (inside the server process) in a temp data dir'
          : `cuepoint start --role all --processes ${config.processes}: API and fold worker, separate process, throwaway PostgreSQL database, pool of 10 connections per process`,
        postgres: counted.postgresVersion,
        load_generator:
          'bench/collect-load.ts, own process: undici Pool, one connection per player, closed loop (next batch when the last is answered)',
        players: config.connections,
        videos: config.videos,
        warmup_seconds: config.warmupSeconds,
        duration_seconds: config.durationSeconds,
        resend_share: RESEND_SHARE,
        viewer_pool: VIEWER_POOL,
        freshness_probe: config.freshness,
        cpu_profile: profiling !== undefined,
        synchronous_commit: config.synchronousCommit,
        load_average_before: loadBefore.map(round3),
        load_average_after: loadAfter.map(round3),
      },
      throughput: {
        requests_per_second: round3(requests / result.window.seconds),
        events_per_second: round3(result.window.events / result.window.seconds),
        new_batches_per_second: round3(result.window.newBatches / result.window.seconds),
        new_events_per_second: round3(result.window.newEvents / result.window.seconds),
        events_per_request: round3(result.window.events / Math.max(1, requests)),
        latency_ms: mapValues(result.window.latencyMs, round3),
        requests_in_window: requests,
      },
      freshness,
      cost_in_window: {
        server_cpu_micros_per_request: round3((window.serverCpuSeconds * 1e6) / Math.max(1, requests)),
        postgres_cpu_micros_per_request:
          window.postgresCpuMicros === undefined ? null : round3(window.postgresCpuMicros / Math.max(1, requests)),
        server_cpu_in_kernel_share: round3(window.serverSystemShare),
        server_write_syscalls_per_request: round3(window.serverWriteSyscalls / Math.max(1, requests)),
        server_read_syscalls_per_request: round3(window.serverReadSyscalls / Math.max(1, requests)),
        server_cpu_cores: round3(window.serverCpuSeconds / window.seconds),
        load_generator_cpu_cores: round3(window.loaderCpuSeconds / window.seconds),
        postgres_cpu_cores: window.postgresCpuMicros === undefined ? null : round3(window.postgresCpuMicros / 1e6 / window.seconds),
        machine_busy_share: round3(window.machineBusy),
        postgres_backends_sampled: window.waits,
        transactions_per_batch: countersBefore && countersAfter ? round3(perBatch(countersAfter.commits - countersBefore.commits)) : null,
        rollbacks: countersBefore && countersAfter ? countersAfter.rollbacks - countersBefore.rollbacks : null,
        deadlocks: countersBefore && countersAfter ? countersAfter.deadlocks - countersBefore.deadlocks : null,
      },
      run: result.run,
      probe_acknowledged: probe.tally,
      fold_caught_up_seconds_after_load: round3(drainSeconds),
      fold_caught_up_measured_as: embedded
        ? 'from the load generator’s exit until a probe batch sent after it showed in GET /v1/videos/{id}/analytics'
        : 'from the end of the load until no stored batch was past the fold’s cursor (SQL)',
      database: counted,
      checks,
      server_profile: profile ?? null,
      verdict: lost.length === 0 ? 'pass: 0 lost' : `lost: ${lost.map((c) => c.check).join('; ')}`,
    };
    printCollect(log, report, checks);
    if (profile) printProfile(log, profile);
    log(`report written to ${writeResultFile(snakeKeys(report), startedAt, embedded ? 'collect-embedded' : 'collect')}`);
    if (lost.length > 0) {
      log(`FAIL: the database does not hold what was acknowledged (${lost.length} check(s) failed)`);
      process.exitCode = 1;
    }
  } finally {
    await probe.close();
    await target.release();
    profiling?.cleanup();
  }
}

/**
 * CPU of the server, PostgreSQL and the machine, and backend wait states, from now until `ended`.
 * Without a PostgreSQL pool (the embedded database) the server's and the machine's CPU only.
 */
async function measureWindow(
  database: BenchPool | undefined,
  serverPid: number,
  loaderPid: number,
  meter: ReturnType<typeof createPostgresCpuMeter> | undefined,
  ended: Promise<void>,
) {
  let stopped = false;
  void ended.then(() => {
    stopped = true;
  });
  const began = performance.now();
  const serverBefore = serverCpuSeconds(serverPid);
  const splitBefore = serverCpuSplit(serverPid);
  const loaderBefore = cpuSeconds(loaderPid);
  const syscallsBefore = syscalls(serverPid);
  const machineBefore = machineCpu();
  const stopPostgres = meter ? await meter.start() : async () => undefined;
  const waits = new Map<string, number>();
  let samples = 0;
  let active = 0;
  while (database && !stopped) {
    const rows = await sql<{ wait: string; count: string }>`
      select coalesce(wait_event_type || ':' || wait_event, 'running (no wait)') as wait, count(*) as count
      from pg_stat_activity
      where datname = current_database() and state = 'active' and pid <> pg_backend_pid()
      group by 1`.execute(database.db);
    samples++;
    for (const row of rows.rows) {
      waits.set(row.wait, (waits.get(row.wait) ?? 0) + Number(row.count));
      active += Number(row.count);
    }
    await Promise.race([ended, new Promise((ok) => setTimeout(ok, 100))]);
  }
  await ended;
  const postgresCpuMicros = await stopPostgres();
  return {
    seconds: (performance.now() - began) / 1000,
    serverCpuSeconds: serverCpuSeconds(serverPid) - serverBefore,
    serverSystemShare: (() => {
      const after = serverCpuSplit(serverPid);
      const user = after.user - splitBefore.user;
      const system = after.system - splitBefore.system;
      return user + system > 0 ? system / (user + system) : 0;
    })(),
    loaderCpuSeconds: cpuSeconds(loaderPid) - loaderBefore,
    serverWriteSyscalls: syscalls(serverPid).writes - syscallsBefore.writes,
    serverReadSyscalls: syscalls(serverPid).reads - syscallsBefore.reads,
    postgresCpuMicros,
    machineBusy: busyShare(machineBefore, machineCpu()),
    waits: database
      ? {
          samples,
          average_active: round3(active / Math.max(1, samples)),
          average_by_state: Object.fromEntries(
            [...waits].sort((a, b) => b[1] - a[1]).map(([wait, n]) => [wait, round3(n / Math.max(1, samples))]),
          ),
        }
      : null,
  };
}

/** Read and write system calls of a process (writes are socket writes here: one per SQL round trip or response). */
function syscalls(pid: number): { reads: number; writes: number } {
  const own = ownSyscalls(pid);
  for (const child of childProcesses(pid)) {
    const theirs = ownSyscalls(child);
    own.reads += theirs.reads;
    own.writes += theirs.writes;
  }
  return own;
}

function ownSyscalls(pid: number): { reads: number; writes: number } {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? Number.NaN);
    return { reads: field('syscr'), writes: field('syscw') };
  } catch {
    return { reads: Number.NaN, writes: Number.NaN };
  }
}

/** User and system CPU seconds of the service and its children (system: the kernel, mostly sockets here). */
function serverCpuSplit(pid: number): { user: number; system: number } {
  const split = { user: 0, system: 0 };
  for (const one of [pid, ...childProcesses(pid)]) {
    try {
      const fields = readFileSync(`/proc/${one}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      split.user += Number(fields[11]) / 100; // USER_HZ is 100 on Linux
      split.system += Number(fields[12]) / 100;
    } catch {
      // gone meanwhile
    }
  }
  return split;
}

/** The service's CPU: its own process and, with --processes, the API processes it forked. */
function serverCpuSeconds(pid: number): number {
  let total = cpuSeconds(pid);
  for (const child of childProcesses(pid)) total += cpuSeconds(child);
  return total;
}

function childProcesses(pid: number): number[] {
  // With --processes, the API processes the service forked (Node names their threads MainThread, so
  // they are not told apart by name; with no video to process, role all starts no other child, no ffmpeg).
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return []; // no /proc, or a child gone meanwhile: the process's own time only
  }
}

/** Runs the load generator; `onMark` hears when its measurement window starts and ends. */
function runLoad(config: LoadConfig, onMark: (mark: 'start' | 'end', loaderPid: number) => void): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOAD_SCRIPT, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const kill = () => child.kill();
    process.once('exit', kill);
    let buffered = '';
    let result: LoadResult | undefined;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const message = JSON.parse(line) as { mark?: 'start' | 'end' } & Partial<LoadResult>;
        if (message.mark) onMark(message.mark, child.pid as number);
        else result = message as LoadResult;
        newline = buffered.indexOf('\n');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      process.removeListener('exit', kill);
      if (code === 0 && result) resolve(result);
      else reject(new Error(`the load generator exited with code ${code}`));
    });
  });
}

function mapValues<T extends Record<string, number>>(values: T, fn: (value: number) => number): T {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, fn(v)])) as T;
}

function printCollect(
  log: (line: string) => void,
  report: {
    throughput: {
      requests_per_second: number;
      events_per_second: number;
      new_events_per_second: number;
      events_per_request: number;
      latency_ms: { p50: number; p90: number; p99: number; max: number };
    };
    cost_in_window: {
      server_cpu_micros_per_request: number;
      postgres_cpu_micros_per_request: number | null;
      server_cpu_cores: number;
      load_generator_cpu_cores: number;
      server_write_syscalls_per_request: number;
      server_cpu_in_kernel_share: number;
      postgres_cpu_cores: number | null;
      machine_busy_share: number;
      postgres_backends_sampled: { average_active: number; average_by_state: Record<string, number> } | null;
      transactions_per_batch: number | null;
      rollbacks: number | null;
      deadlocks: number | null;
    };
    freshness: FreshnessFigures | null;
    configuration: { database: string; load_average_before: number[]; load_average_after: number[] };
    run: LoadResult['run'];
    probe_acknowledged: ProbeTally;
    fold_caught_up_seconds_after_load: number;
    verdict: string;
  },
  checks: Check[],
): void {
  const t = report.throughput;
  const c = report.cost_in_window;
  const loads = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ');
  const embedded = report.configuration.database !== 'PostgreSQL';
  log('');
  log('POST /collect                 ');
  log(`  requests/s          ${t.requests_per_second.toFixed(0)}`);
  log(
    `  events/s            ${t.events_per_second.toFixed(0)} (${t.new_events_per_second.toFixed(0)} counted for the first time; ${t.events_per_request.toFixed(2)} events a request)`,
  );
  log(
    `  latency ms          p50 ${t.latency_ms.p50.toFixed(1)}, p90 ${t.latency_ms.p90.toFixed(1)}, p99 ${t.latency_ms.p99.toFixed(1)}, max ${t.latency_ms.max.toFixed(1)}`,
  );
  const f = report.freshness;
  if (f?.lag_ms) {
    const met = f.meets_target ? 'met' : 'missed';
    const unseen =
      f.not_seen_within_seconds.probes > 0
        ? `, ${f.not_seen_within_seconds.probes} not seen within ${f.not_seen_within_seconds.limit} s`
        : '';
    log(
      `  freshness ms        p50 ${f.lag_ms.p50.toFixed(0)}, p90 ${f.lag_ms.p90.toFixed(0)}, p99 ${f.lag_ms.p99.toFixed(0)}, max ${f.lag_ms.max.toFixed(0)} from the 200 to the view in the analytics API (${f.probes} probes${unseen}; target p50 and p99 ≤ ${f.target_ms}: ${met})`,
    );
  } else if (f) log(`  freshness           no probe was seen within ${f.not_seen_within_seconds.limit} s (${f.probes} probes)`);
  if (embedded) {
    log(
      `  CPU per request     server ${c.server_cpu_micros_per_request.toFixed(0)} µs (${(c.server_cpu_in_kernel_share * 100).toFixed(0)}% in the kernel), the embedded database included`,
    );
    log(
      `  CPU in use          server ${c.server_cpu_cores.toFixed(2)} cores, load generator ${c.load_generator_cpu_cores.toFixed(2)} cores; machine ${(c.machine_busy_share * 100).toFixed(0)}% busy`,
    );
    log(`  server writes       ${c.server_write_syscalls_per_request.toFixed(1)} write system calls a request`);
    log('  PG backends active  skipped (embedded database: no PostgreSQL backends, waits or counters to read)');
  } else {
    log(
      `  CPU per request     server ${c.server_cpu_micros_per_request.toFixed(0)} µs (${(c.server_cpu_in_kernel_share * 100).toFixed(0)}% in the kernel), PostgreSQL ${c.postgres_cpu_micros_per_request?.toFixed(0) ?? '?'} µs`,
    );
    log(
      `  CPU in use          server ${c.server_cpu_cores.toFixed(2)} cores, PostgreSQL ${c.postgres_cpu_cores?.toFixed(2) ?? '?'} cores, load generator ${c.load_generator_cpu_cores.toFixed(2)} cores; machine ${(c.machine_busy_share * 100).toFixed(0)}% busy`,
    );
    log(
      `  server writes       ${c.server_write_syscalls_per_request.toFixed(1)} write system calls a request (SQL round trips + the response)`,
    );
    const sampled = c.postgres_backends_sampled;
    const states = Object.entries(sampled?.average_by_state ?? {})
      .map(([state, n]) => `${state} ${n.toFixed(2)}`)
      .join(', ');
    log(`  PG backends active  ${sampled?.average_active.toFixed(2) ?? '?'} on average: ${states}`);
    log(`  transactions/batch  ${c.transactions_per_batch?.toFixed(2) ?? '?'}, rollbacks ${c.rollbacks}, deadlocks ${c.deadlocks}`);
  }
  if (f) log(`  probe's reads       ${f.analytics_requests} analytics requests in the figures above, besides the load's`);
  log(
    `  load average        before ${loads(report.configuration.load_average_before)}, after ${loads(report.configuration.load_average_after)}`,
  );
  const r = report.run;
  log(
    `  whole run           ${r.requests} requests, ${r.deliveredBatches} batches acknowledged, ${r.deliberateResends} resent on purpose, ${r.sessions} page views, ${r.views} views`,
  );
  const p = report.probe_acknowledged;
  if (p.batches > 0) log(`  probe               ${p.sessions} page views of 2 s on its own video (counted with the load's below)`);
  log(`  fold caught up      ${report.fold_caught_up_seconds_after_load.toFixed(2)} s after the load stopped`);
  const failed = Object.entries(r.failedAttempts);
  if (failed.length > 0) log(`  failed attempts     ${failed.map(([k, n]) => `${k}: ${n}`).join(', ')} (sent again)`);
  log('');
  for (const check of checks) log(`  ${check.ok ? 'ok  ' : 'LOST'} ${check.check}: ${check.expected} vs ${check.actual}`);
  log(`  verdict: ${report.verdict}`);
  log('');
}
