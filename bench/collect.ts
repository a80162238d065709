/**
 * `npm run bench -- collect`: viewing collection throughput on PostgreSQL, and proof that nothing
 * acknowledged is lost. A real service process (`cuepoint start --role api`, bench/service-process.ts)
 * on a throwaway PostgreSQL database, 20 ready videos (60–600 s) inserted straight into it, and a
 * load generator in a process of its own (bench/collect-load.ts) playing page views through
 * `POST /collect` with a fixed number of concurrent players, each sending its next batch as soon as
 * the last was answered: realistic batches (play + progress first, then 2–6 events per "5 s", seeks,
 * pauses, CTA clicks, early leavers, ~3% of batches resent unchanged). After a warm-up, requests/s,
 * events/s and latency are taken over a fixed window, with the CPU time the server, PostgreSQL and
 * the machine spent in it, and what the database backends were waiting on (sampled every 100 ms).
 *
 * Then the database is counted against what the generator was told: acknowledged batches (each
 * (session, sequence) once, resends not) = rows in viewing_batches; the sum of the progress ranges
 * sent = sum of watch_time_seconds in video_daily_stats (and video_stats, and the sessions' played
 * seconds), within float tolerance; page views that played ≥ 1 s = views in every rollup; deliberate
 * resends answered `duplicate: true`. Any difference is a loss: the verdict says `lost`, a FAIL line
 * is printed and the process exits 1. Writes bench/results/<date>-collect.json.
 *
 * Settings (environment): BENCH_DATABASE_URL or DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test: a server where a database may be created and dropped),
 * BENCH_COLLECT_DURATION (s measured, default 20), BENCH_COLLECT_WARMUP (s, default 5),
 * BENCH_COLLECT_CONNECTIONS (concurrent players, default 16), BENCH_COLLECT_VIDEOS (default 20),
 * BENCH_COLLECT_PROCESSES (the service's --processes, default 1), BENCH_CPU_PROF (1, or a directory
 * to keep the .cpuprofile in: profile the service with --cpu-prof and print where its time went),
 * BENCH_COLLECT_SYNCHRONOUS_COMMIT=off (an experiment, never a way to run the service: the database's
 * commits stop waiting for their WAL flush, which shows what that wait costs; a crash could then lose
 * acknowledged batches).
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { LoadConfig, LoadResult } from './collect-load.ts';
import { printProfile, profilingFromEnvironment } from './cpu-profile.ts';
import { describeMachine } from './machine.ts';
import { createPostgresCpuMeter } from './postgres-cpu.ts';
import { writeResultFile } from './result-file.ts';
import { cpuSeconds, startService } from './service-process.ts';
import {
  type BenchPool,
  busyShare,
  createThrowawayDatabase,
  databaseCounters,
  machineCpu,
  openBenchPool,
  round3,
  snakeKeys,
  type ThrowawayDatabase,
} from './throwaway-database.ts';

const LOAD_SCRIPT = fileURLToPath(new URL('./collect-load.ts', import.meta.url));
const RESEND_SHARE = 0.03;
const VIEWER_POOL = 5000;
/** Relative tolerance of float sums (the rollups add doubles batch by batch). */
const WATCH_TIME_TOLERANCE = 1e-9;

const numberSetting = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const settings = () => ({
  databaseUrl: process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  durationSeconds: numberSetting('BENCH_COLLECT_DURATION', 20),
  warmupSeconds: numberSetting('BENCH_COLLECT_WARMUP', 5),
  connections: Math.floor(numberSetting('BENCH_COLLECT_CONNECTIONS', 16)),
  videos: Math.floor(numberSetting('BENCH_COLLECT_VIDEOS', 20)),
  processes: Math.floor(numberSetting('BENCH_COLLECT_PROCESSES', 1)),
  /** An experiment only: 'off' shows what waiting for the commit's WAL flush costs. Never how to run. */
  synchronousCommit: process.env.BENCH_COLLECT_SYNCHRONOUS_COMMIT === 'off' ? ('off' as const) : ('on' as const),
});

interface Check {
  check: string;
  expected: number;
  actual: number;
  ok: boolean;
}

export async function runCollectBenchmark(log: (line: string) => void): Promise<void> {
  const config = settings();
  const startedAt = new Date();
  const loadBefore = loadavg();
  const secret = randomBytes(32).toString('base64url'); // 43 characters
  const profiling = profilingFromEnvironment();
  const throwaway: ThrowawayDatabase = await createThrowawayDatabase(config.databaseUrl, {
    synchronousCommit: config.synchronousCommit,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void throwaway.drop().finally(() => process.exit(130)));
  let database: BenchPool | undefined;
  const service = await startService({
    args: ['--role', 'api', '--processes', String(config.processes)],
    env: {
      DATABASE_URL: throwaway.url,
      CUEPOINT_SECRET: secret,
      CUEPOINT_RATE_LIMIT: '1000000',
      ...profiling?.env,
    },
  }).catch(async (error) => {
    await throwaway.drop();
    throw error;
  });
  try {
    log(`\ncollect benchmark: server pid ${service.pid} (cuepoint start --role api, PostgreSQL database ${throwaway.name})`);
    database = openBenchPool(throwaway.url);
    const videos = await insertVideos(database, service.workspaceId, config.videos);
    await sql`analyze`.execute(database.db);
    const meter = createPostgresCpuMeter(database.db);
    const countersBefore = await databaseCounters(database);

    log(
      `${config.connections} players, ${config.videos} videos, ${config.warmupSeconds} s warm-up + ${config.durationSeconds} s measured (load average ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')})`,
    );
    const loadConfig: LoadConfig = {
      url: service.url,
      secret,
      videos,
      connections: config.connections,
      warmupSeconds: config.warmupSeconds,
      durationSeconds: config.durationSeconds,
      resendShare: RESEND_SHARE,
      viewerPool: VIEWER_POOL,
      seed: 2026,
    };
    let windowFigures: Awaited<ReturnType<typeof measureWindow>> | undefined;
    let windowDone: Promise<void> | undefined;
    let endWindow = () => {};
    const windowEnded = new Promise<void>((ok) => {
      endWindow = ok;
    });
    const result = await runLoad(loadConfig, (mark, loaderPid) => {
      if (mark === 'start') {
        windowDone = measureWindow(database as BenchPool, service.pid, loaderPid, meter, windowEnded).then((figures) => {
          windowFigures = figures;
        });
      } else endWindow();
    });
    endWindow();
    await windowDone;
    const window = windowFigures;
    if (!window) throw new Error('the load generator never reported its measurement window');

    // Statistics reach pg_stat_database when a backend goes idle (and at most every second).
    await new Promise((ok) => setTimeout(ok, 1500));
    const countersAfter = await databaseCounters(database);
    const counted = await countDatabase(database, service.workspaceId);
    const checks = compareCounts(result, counted);
    const lost = checks.filter((c) => !c.ok);
    const requests = result.window.requests;
    const loadAfter = loadavg();

    await service.stop();
    const profile = profiling?.summarise();

    const report = {
      benchmark: 'viewing collection: POST /collect throughput on PostgreSQL, 0 lost',
      date: startedAt.toISOString(),
      machine: describeMachine(),
      configuration: {
        route: 'POST /collect',
        server: `cuepoint start --role api --processes ${config.processes}, separate process, throwaway PostgreSQL database, pool of 10 connections per process`,
        postgres: counted.postgresVersion,
        load_generator:
          'bench/collect-load.ts, own process: undici Pool, one connection per player, closed loop (next batch when the last is answered)',
        players: config.connections,
        videos: config.videos,
        warmup_seconds: config.warmupSeconds,
        duration_seconds: config.durationSeconds,
        resend_share: RESEND_SHARE,
        viewer_pool: VIEWER_POOL,
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
        transactions_per_batch: round3(
          (countersAfter.commits - countersBefore.commits) / Math.max(1, result.run.deliveredBatches + result.run.deliberateResends),
        ),
        rollbacks: countersAfter.rollbacks - countersBefore.rollbacks,
        deadlocks: countersAfter.deadlocks - countersBefore.deadlocks,
      },
      run: result.run,
      database: counted,
      checks,
      server_profile: profile ?? null,
      verdict: lost.length === 0 ? 'pass: 0 lost' : `lost: ${lost.map((c) => c.check).join('; ')}`,
    };
    printCollect(log, report, checks);
    if (profile) printProfile(log, profile);
    log(`report written to ${writeResultFile(snakeKeys(report), startedAt, 'collect')}`);
    if (lost.length > 0) {
      log(`FAIL: the database does not hold what was acknowledged (${lost.length} check(s) failed)`);
      process.exitCode = 1;
    }
  } finally {
    await database?.close();
    await service.stop();
    await throwaway.drop();
    profiling?.cleanup();
  }
}

/** CPU of the server, PostgreSQL and the machine, and backend wait states, from now until `ended`. */
async function measureWindow(
  database: BenchPool,
  serverPid: number,
  loaderPid: number,
  meter: ReturnType<typeof createPostgresCpuMeter>,
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
  const stopPostgres = await meter.start();
  const waits = new Map<string, number>();
  let samples = 0;
  let active = 0;
  while (!stopped) {
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
    waits: {
      samples,
      average_active: round3(active / Math.max(1, samples)),
      average_by_state: Object.fromEntries(
        [...waits].sort((a, b) => b[1] - a[1]).map(([wait, n]) => [wait, round3(n / Math.max(1, samples))]),
      ),
    },
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
  // they are not told apart by name; role api starts no other child, no ffmpeg).
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

async function insertVideos(database: BenchPool, workspaceId: string, count: number) {
  const now = new Date();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    workspace_id: workspaceId,
    folder_id: null,
    title: `Collection benchmark video ${i + 1}`,
    status: 'ready' as const,
    source_url: null,
    file_name: `bench-${i + 1}.mp4`,
    file_size: 50_000_000,
    duration_seconds: 60 + ((i * 97) % 541),
    width: 1280,
    height: 720,
    failure_reason: null,
    created_at: now,
    updated_at: now,
  }));
  await database.db.insertInto('videos').values(rows).execute();
  return rows.map((row) => ({ id: row.id, durationSeconds: row.duration_seconds }));
}

async function countDatabase(database: BenchPool, workspaceId: string) {
  const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(database.db)).rows[0] as T;
  const batches = await one<{ rows: string }>(sql`select count(*) as rows from viewing_batches where workspace_id = ${workspaceId}`);
  const sessions = await one<{ rows: string; views: string; played: number; clicked: string }>(sql`
    select count(*) as rows, count(*) filter (where is_view) as views, coalesce(sum(played_seconds), 0)::float8 as played,
           count(*) filter (where is_view and cta_clicks > 0) as clicked
    from viewing_sessions where workspace_id = ${workspaceId}`);
  const daily = await one<{ rows: string; views: string; watch: number; conversions: string }>(sql`
    select count(*) as rows, coalesce(sum(views), 0) as views, coalesce(sum(watch_time_seconds), 0)::float8 as watch,
           coalesce(sum(conversions), 0) as conversions
    from video_daily_stats where workspace_id = ${workspaceId}`);
  const lifetime = await one<{ views: string; watch: number }>(sql`
    select coalesce(sum(views), 0) as views, coalesce(sum(watch_time_seconds), 0)::float8 as watch
    from video_stats where workspace_id = ${workspaceId}`);
  const heatmaps = await one<{ views: string }>(
    sql`select coalesce(sum(views), 0) as views from video_heatmaps where workspace_id = ${workspaceId}`,
  );
  const videos = await one<{ views: string }>(
    sql`select coalesce(sum(view_count), 0) as views from videos where workspace_id = ${workspaceId}`,
  );
  const version = await one<{ server_version: string }>(sql`show server_version`);
  return {
    postgresVersion: version.server_version,
    viewingBatches: Number(batches.rows),
    viewingSessions: Number(sessions.rows),
    sessionsThatAreViews: Number(sessions.views),
    sessionsPlayedSeconds: sessions.played,
    viewsWithCtaClick: Number(sessions.clicked),
    dailyRows: Number(daily.rows),
    dailyViews: Number(daily.views),
    dailyWatchTimeSeconds: daily.watch,
    dailyConversions: Number(daily.conversions),
    lifetimeViews: Number(lifetime.views),
    lifetimeWatchTimeSeconds: lifetime.watch,
    heatmapViews: Number(heatmaps.views),
    videoViewCounts: Number(videos.views),
  };
}

function compareCounts(result: LoadResult, db: Awaited<ReturnType<typeof countDatabase>>): Check[] {
  const exact = (check: string, expected: number, actual: number): Check => ({ check, expected, actual, ok: expected === actual });
  const close = (check: string, expected: number, actual: number): Check => ({
    check,
    expected: round3(expected),
    actual: round3(actual),
    ok: Math.abs(expected - actual) <= WATCH_TIME_TOLERANCE * Math.max(1, expected) + 1e-6,
  });
  const run = result.run;
  return [
    exact('acknowledged batches = rows in viewing_batches', run.deliveredBatches, db.viewingBatches),
    exact('page views with an acknowledged batch = rows in viewing_sessions', run.sessions, db.viewingSessions),
    close('progress ranges sent (s) = sum of video_daily_stats.watch_time_seconds', run.watchTimeSeconds, db.dailyWatchTimeSeconds),
    close('progress ranges sent (s) = sum of video_stats.watch_time_seconds', run.watchTimeSeconds, db.lifetimeWatchTimeSeconds),
    close('progress ranges sent (s) = sum of viewing_sessions.played_seconds', run.watchTimeSeconds, db.sessionsPlayedSeconds),
    exact('page views that played ≥ 1 s = sum of video_daily_stats.views', run.views, db.dailyViews),
    exact('page views that played ≥ 1 s = sum of video_stats.views', run.views, db.lifetimeViews),
    exact('page views that played ≥ 1 s = sum of video_heatmaps.views', run.views, db.heatmapViews),
    exact('page views that played ≥ 1 s = sum of videos.view_count', run.views, db.videoViewCounts),
    exact('page views that played ≥ 1 s = viewing_sessions marked is_view', run.views, db.sessionsThatAreViews),
    exact('views with a CTA click = sum of video_daily_stats.conversions', run.conversions, db.dailyConversions),
    exact('views with a CTA click = viewing_sessions that are views with a click', run.conversions, db.viewsWithCtaClick),
    exact('deliberate resends counted again', 0, run.resendsCountedAgain),
    exact('batches refused (4xx)', 0, run.refusedBatches),
  ];
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
      postgres_backends_sampled: { average_active: number; average_by_state: Record<string, number> };
      transactions_per_batch: number;
      rollbacks: number;
      deadlocks: number;
    };
    configuration: { load_average_before: number[]; load_average_after: number[] };
    run: LoadResult['run'];
    verdict: string;
  },
  checks: Check[],
): void {
  const t = report.throughput;
  const c = report.cost_in_window;
  const loads = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ');
  log('');
  log('POST /collect                 ');
  log(`  requests/s          ${t.requests_per_second.toFixed(0)}`);
  log(
    `  events/s            ${t.events_per_second.toFixed(0)} (${t.new_events_per_second.toFixed(0)} counted for the first time; ${t.events_per_request.toFixed(2)} events a request)`,
  );
  log(
    `  latency ms          p50 ${t.latency_ms.p50.toFixed(1)}, p90 ${t.latency_ms.p90.toFixed(1)}, p99 ${t.latency_ms.p99.toFixed(1)}, max ${t.latency_ms.max.toFixed(1)}`,
  );
  log(
    `  CPU per request     server ${c.server_cpu_micros_per_request.toFixed(0)} µs (${(c.server_cpu_in_kernel_share * 100).toFixed(0)}% in the kernel), PostgreSQL ${c.postgres_cpu_micros_per_request?.toFixed(0) ?? '?'} µs`,
  );
  log(
    `  CPU in use          server ${c.server_cpu_cores.toFixed(2)} cores, PostgreSQL ${c.postgres_cpu_cores?.toFixed(2) ?? '?'} cores, load generator ${c.load_generator_cpu_cores.toFixed(2)} cores; machine ${(c.machine_busy_share * 100).toFixed(0)}% busy`,
  );
  log(
    `  server writes       ${c.server_write_syscalls_per_request.toFixed(1)} write system calls a request (SQL round trips + the response)`,
  );
  const states = Object.entries(c.postgres_backends_sampled.average_by_state)
    .map(([state, n]) => `${state} ${n.toFixed(2)}`)
    .join(', ');
  log(`  PG backends active  ${c.postgres_backends_sampled.average_active.toFixed(2)} on average: ${states}`);
  log(`  transactions/batch  ${c.transactions_per_batch.toFixed(2)}, rollbacks ${c.rollbacks}, deadlocks ${c.deadlocks}`);
  log(
    `  load average        before ${loads(report.configuration.load_average_before)}, after ${loads(report.configuration.load_average_after)}`,
  );
  const r = report.run;
  log(
    `  whole run           ${r.requests} requests, ${r.deliveredBatches} batches acknowledged, ${r.deliberateResends} resent on purpose, ${r.sessions} page views, ${r.views} views`,
  );
  const failed = Object.entries(r.failedAttempts);
  if (failed.length > 0) log(`  failed attempts     ${failed.map(([k, n]) => `${k}: ${n}`).join(', ')} (sent again)`);
  log('');
  for (const check of checks) log(`  ${check.ok ? 'ok  ' : 'LOST'} ${check.check}: ${check.expected} vs ${check.actual}`);
  log(`  verdict: ${report.verdict}`);
  log('');
}
