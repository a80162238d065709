import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { localDay } from '../src/core/calendar/time-zone.ts';
import { type SeededWorkspace, seedAnalyticsWorkspace } from './analytics-seed.ts';
import { benchDatabaseUrl, countSetting, sizesSetting } from './bench-settings.ts';
import { printProfile } from './cpu-profile.ts';
import { describeMachine } from './machine.ts';
import { createPostgresCpuMeter } from './postgres-cpu.ts';
import { loads, mapRound, startReadBench } from './read-bench-service.ts';
import { writeResultFile } from './result-file.ts';
import { cpuSeconds } from './service-process.ts';
import { type BenchPool, percentile, round3, snakeKeys } from './throwaway-database.ts';

const OPERATIONS = [
  { name: 'get_video_analytics', path: (videoId: string) => `/v1/videos/${videoId}/analytics` },
  { name: 'get_video_retention', path: (videoId: string) => `/v1/videos/${videoId}/retention` },
  { name: 'get_analytics_summary', path: (_videoId: string) => '/v1/analytics/summary' },
  { name: 'list_changes', path: (_videoId: string) => '/v1/changes' },
] as const;

type OperationName = (typeof OPERATIONS)[number]['name'];

const settings = () => ({
  databaseUrl: benchDatabaseUrl(),
  sizes: sizesSetting('BENCH_ANALYTICS_SIZES', '10000,100000,1000000'),
  rounds: countSetting('BENCH_ANALYTICS_ROUNDS', 10),
  block: countSetting('BENCH_ANALYTICS_BLOCK', 30),
  warmup: countSetting('BENCH_ANALYTICS_WARMUP', 20),
});

interface Cell {
  latencies: number[];
  serverCpuSeconds: number;
  postgresCpuMicros: number;
  postgresMeasured: boolean;
  requests: number;
}

export async function runAnalyticsBenchmark(log: (line: string) => void): Promise<void> {
  const config = settings();
  if (config.sizes.length === 0) throw new Error('BENCH_ANALYTICS_SIZES holds no size');
  const startedAt = new Date();
  const loadBefore = loadavg();
  const bench = await startReadBench(config.databaseUrl);
  const { profiling, throwaway, service, pool } = bench;
  try {
    log(`\nanalytics benchmark: server pid ${service.pid} (cuepoint start --role api, PostgreSQL database ${throwaway.name})`);
    const database = bench.database();
    const now = new Date();

    // ── seeding ──────────────────────────────────────────────────────────────────────────────────
    const seeded: SeededWorkspace[] = [];
    const seedBegan = performance.now();
    for (const size of config.sizes) {
      log(`seeding a workspace with ${size} sessions (load average ${loads(loadavg())})`);
      const workspace = await seedAnalyticsWorkspace(database, size, now, log);
      const failed = workspace.checks.filter((c) => !c.ok);
      if (failed.length > 0)
        throw new Error(`seeded data disagree:\n${failed.map((c) => `${c.check}: ${c.expected} vs ${c.actual}`).join('\n')}`);
      seeded.push(workspace);
    }
    log('vacuum analyze of the rollup tables, analyze of the rest');
    for (const table of [
      'video_daily_stats',
      'workspace_daily_stats',
      'workspace_daily_revenue',
      'video_heatmaps',
      'video_stats',
      'videos',
      'leads',
      'outcomes',
    ])
      await sql`vacuum analyze ${sql.table(table)}`.execute(database.db);
    await sql`analyze`.execute(database.db);
    const seedSeconds = (performance.now() - seedBegan) / 1000;
    log(`seeded in ${seedSeconds.toFixed(0)} s`);

    // ── the operations must exist, and answer what was seeded ────────────────────────────────────
    const get = async (workspace: SeededWorkspace, path: string) => {
      const response = await pool.request({ path, method: 'GET', headers: { authorization: `Bearer ${workspace.apiKey}` } });
      const text = await response.body.text();
      return { status: response.statusCode, text };
    };
    const missing: string[] = [];
    for (const operation of OPERATIONS) {
      const answer = await get(seeded[0] as SeededWorkspace, operation.path((seeded[0] as SeededWorkspace).videoIds[0] as string));
      if (answer.status !== 200) missing.push(`${operation.name}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    if (missing.length > 0) throw new Error(`analytics operations not available:\n${missing.join('\n')}`);
    const spotChecks: { sessions: number; check: string; expected: number; actual: number; ok: boolean }[] = [];
    for (const workspace of seeded) {
      const today = localDay(now, workspace.timeZone);
      const answer = JSON.parse((await get(workspace, '/v1/analytics/summary?range=365d')).text) as {
        period: { from_date: string; to_date: string };
        metrics: { views: { value: number } };
      };
      const raw = (
        await sql<{ views: string }>`
          select count(*) as views from viewing_sessions
          where workspace_id = ${workspace.workspaceId} and is_view and day between ${answer.period.from_date} and ${answer.period.to_date}`.execute(
          database.db,
        )
      ).rows[0];
      const check = {
        sessions: workspace.sessions,
        check: `get_analytics_summary 365d views (${answer.period.from_date}…${answer.period.to_date}, today ${today}) = views counted in viewing_sessions`,
        expected: Number(raw?.views),
        actual: answer.metrics.views.value,
        ok: Number(raw?.views) === answer.metrics.views.value,
      };
      spotChecks.push(check);
      if (!check.ok) throw new Error(`${check.check}: ${check.expected} vs ${check.actual}`);
    }
    log('the summary of every workspace matches its raw sessions');

    // What each read has to go through, per size.
    const readShape: Awaited<ReturnType<typeof shapeOfReads>>[] = [];
    for (const workspace of seeded) readShape.push(await shapeOfReads(database, workspace, now));

    // ── measuring ────────────────────────────────────────────────────────────────────────────────
    const meter = createPostgresCpuMeter(database.db);
    const cells = new Map<string, Cell>();
    const key = (size: number, operation: OperationName) => `${size} ${operation}`;
    let counter = 0;
    const runBlock = async (workspace: SeededWorkspace, operation: (typeof OPERATIONS)[number], requests: number, cell?: Cell) => {
      const cpuBefore = cpuSeconds(service.pid);
      const stopPostgres = cell ? await meter.start() : undefined;
      for (let i = 0; i < requests; i++) {
        const videoId = workspace.videoIds[counter++ % workspace.videoIds.length] as string;
        const began = performance.now();
        const answer = await get(workspace, operation.path(videoId));
        const ms = performance.now() - began;
        if (answer.status !== 200) throw new Error(`${operation.name} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        cell?.latencies.push(ms);
      }
      if (!cell) return;
      cell.serverCpuSeconds += cpuSeconds(service.pid) - cpuBefore;
      const pg = await stopPostgres?.();
      if (pg === undefined) cell.postgresMeasured = false;
      else cell.postgresCpuMicros += pg;
      cell.requests += requests;
    };
    log(`warm-up: ${config.warmup} requests per size and operation`);
    for (const workspace of seeded) for (const operation of OPERATIONS) await runBlock(workspace, operation, config.warmup);
    log(`measuring: ${config.rounds} rounds of ${config.block} requests per size and operation (load average ${loads(loadavg())})`);
    const loadDuring: number[][] = [];
    for (let round = 0; round < config.rounds; round++) {
      for (let s = 0; s < seeded.length; s++) {
        const workspace = seeded[(round + s) % seeded.length] as SeededWorkspace;
        for (const operation of OPERATIONS) {
          const k = key(workspace.sessions, operation.name);
          const cell = cells.get(k) ?? { latencies: [], serverCpuSeconds: 0, postgresCpuMicros: 0, postgresMeasured: true, requests: 0 };
          cells.set(k, cell);
          await runBlock(workspace, operation, config.block, cell);
        }
      }
      loadDuring.push(loadavg().map(round3));
    }

    const results = OPERATIONS.map((operation) => ({
      operation: operation.name,
      by_size: seeded.map((workspace) => {
        const cell = cells.get(key(workspace.sessions, operation.name)) as Cell;
        return {
          sessions: workspace.sessions,
          requests: cell.requests,
          latency_ms: {
            p50: round3(percentile(cell.latencies, 50)),
            p90: round3(percentile(cell.latencies, 90)),
            p99: round3(percentile(cell.latencies, 99)),
            mean: round3(cell.latencies.reduce((a, b) => a + b, 0) / Math.max(1, cell.latencies.length)),
          },
          server_cpu_micros_per_request: round3((cell.serverCpuSeconds * 1e6) / Math.max(1, cell.requests)),
          postgres_cpu_micros_per_request: cell.postgresMeasured ? round3(cell.postgresCpuMicros / Math.max(1, cell.requests)) : null,
        };
      }),
    })).map((row) => {
      const first = row.by_size[0] as (typeof row.by_size)[number];
      const last = row.by_size[row.by_size.length - 1] as (typeof row.by_size)[number];
      return {
        ...row,
        largest_over_smallest: {
          p50: round3(last.latency_ms.p50 / first.latency_ms.p50),
          p99: round3(last.latency_ms.p99 / first.latency_ms.p99),
          server_cpu: round3(last.server_cpu_micros_per_request / first.server_cpu_micros_per_request),
        },
      };
    });
    const historyGrowth = (config.sizes[config.sizes.length - 1] as number) / (config.sizes[0] as number);
    // Flat: the largest size costs at most twice the smallest (p50 and server CPU) while its history is
    // 100 times larger.
    const FLAT = 2;
    const verdicts = Object.fromEntries(
      results.map((r) => [
        r.operation,
        r.largest_over_smallest.p50 <= FLAT && r.largest_over_smallest.server_cpu <= FLAT ? 'flat' : 'not flat',
      ]),
    );
    const notFlat = Object.entries(verdicts).filter(([, v]) => v !== 'flat');
    const version = (await sql<{ server_version: string }>`show server_version`.execute(database.db)).rows[0]?.server_version;
    const report = {
      benchmark: 'analytics reads: p50/p99 as viewing history grows',
      date: startedAt.toISOString(),
      machine: describeMachine(),
      configuration: {
        server: 'cuepoint start --role api, separate process, throwaway PostgreSQL database (one workspace per size)',
        postgres: version ?? 'unknown',
        client: 'undici, one keep-alive connection, one request at a time, in the benchmark process',
        requests: OPERATIONS.map((o) => `GET ${o.path('{id}')} (default range)`),
        sizes: config.sizes,
        rounds: config.rounds,
        block: config.block,
        warmup: config.warmup,
        seeding:
          'bulk SQL (generate_series) for viewing_sessions and viewing_batches; rollups from applyBatch and viewer sketches (bench/analytics-seed.ts)',
        seed_seconds: round3(seedSeconds),
        load_average_before: loadBefore.map(round3),
        load_average_after_each_round: loadDuring,
        load_average_after: loadavg().map(round3),
      },
      workspaces: seeded.map((w, i) => ({
        sessions: w.sessions,
        rows: w.rows,
        totals: mapRound(w.totals),
        seed_seconds: mapRound(w.seconds),
        checks: w.checks,
        reads: readShape[i],
      })),
      spot_checks: spotChecks,
      results,
      history_growth: historyGrowth,
      flat_limit: FLAT,
      verdicts,
      verdict: notFlat.length === 0 ? 'flat' : `not flat: ${notFlat.map(([name]) => name).join(', ')}`,
      server_profile: null as ReturnType<NonNullable<typeof profiling>['summarise']> | null,
    };
    await bench.stopService(); // the profile is written as the process exits
    report.server_profile = profiling?.summarise() ?? null;
    printAnalytics(log, report);
    if (report.server_profile) printProfile(log, report.server_profile);
    log(`report written to ${writeResultFile(snakeKeys(report), startedAt, 'analytics')}`);
  } finally {
    await bench.tearDown();
  }
}

/** Rollup rows and sketch bytes each read goes through (default ranges), against the raw rows behind them. */
async function shapeOfReads(database: BenchPool, workspace: SeededWorkspace, now: Date) {
  const today = localDay(now, workspace.timeZone);
  const window = async (table: 'video_daily_stats' | 'workspace_daily_stats', days: number) =>
    (
      await sql<{ rows: string; bytes: string }>`
        select count(*) as rows, coalesce(sum(octet_length(viewer_sketch)), 0) as bytes
        from ${sql.table(table)}
        where workspace_id = ${workspace.workspaceId} and day between ${addDays(today, -(days - 1))} and ${today}`.execute(database.db)
    ).rows[0];
  const video28 = await window('video_daily_stats', 28);
  // The summary reads the workspace's days (and their sketches of videos viewed, 4 bytes a video).
  const summary = await window('workspace_daily_stats', 56);
  const videos = workspace.videoIds.length;
  return {
    get_video_analytics: {
      day_rows_per_request: round3(Number(video28?.rows) / videos),
      sketch_bytes_per_request: round3(Number(video28?.bytes) / videos),
    },
    get_video_retention: { heatmap_rows_per_request: 1 },
    get_analytics_summary: { day_rows_per_request: Number(summary?.rows), sketch_bytes_per_request: Number(summary?.bytes) },
  };
}

/** 'YYYY-MM-DD' plus n days (calendar arithmetic, no time zone involved). */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

function printAnalytics(
  log: (line: string) => void,
  report: {
    workspaces: {
      sessions: number;
      rows: SeededWorkspace['rows'];
      reads: Awaited<ReturnType<typeof shapeOfReads>> | undefined;
      seed_seconds: SeededWorkspace['seconds'];
    }[];
    results: {
      operation: string;
      by_size: {
        sessions: number;
        latency_ms: { p50: number; p90: number; p99: number };
        server_cpu_micros_per_request: number;
        postgres_cpu_micros_per_request: number | null;
      }[];
      largest_over_smallest: { p50: number; p99: number; server_cpu: number };
    }[];
    configuration: { load_average_before: number[]; load_average_after: number[] };
    verdict: string;
    verdicts: Record<string, string>;
    history_growth: number;
    flat_limit: number;
  },
): void {
  const n = (value: number) => value.toLocaleString('en-US');
  log('');
  log(
    `${'sessions'.padStart(10)}${'batches'.padStart(12)}${'day rows'.padStart(10)}${'sketch KiB'.padStart(12)}${'raw s'.padStart(8)}${'rollup s'.padStart(10)}${'summary reads'.padStart(30)}`,
  );
  for (const w of report.workspaces) {
    const reads = w.reads?.get_analytics_summary;
    log(
      `${n(w.sessions).padStart(10)}${n(w.rows.viewingBatches).padStart(12)}${n(w.rows.dailyRows).padStart(10)}${(w.rows.dailySketchBytes / 1024).toFixed(0).padStart(12)}${w.seed_seconds.rawHistory.toFixed(0).padStart(8)}${w.seed_seconds.rollups.toFixed(0).padStart(10)}${`${reads?.day_rows_per_request ?? '?'} rows, ${((reads?.sketch_bytes_per_request ?? 0) / 1024).toFixed(0)} KiB sketches`.padStart(30)}`,
    );
  }
  log('');
  log(
    `${'operation'.padEnd(24)}${'sessions'.padStart(10)}${'p50 ms'.padStart(9)}${'p90 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'Node µs'.padStart(9)}${'PG µs'.padStart(8)}`,
  );
  for (const row of report.results) {
    for (const s of row.by_size) {
      log(
        `${row.operation.padEnd(24)}${n(s.sessions).padStart(10)}${s.latency_ms.p50.toFixed(2).padStart(9)}${s.latency_ms.p90.toFixed(2).padStart(9)}${s.latency_ms.p99.toFixed(2).padStart(9)}${s.server_cpu_micros_per_request.toFixed(0).padStart(9)}${(s.postgres_cpu_micros_per_request?.toFixed(0) ?? '?').padStart(8)}`,
      );
    }
    const r = row.largest_over_smallest;
    log(
      `${''.padEnd(24)}${'largest/smallest:'.padStart(10)} p50 ×${r.p50.toFixed(2)}, p99 ×${r.p99.toFixed(2)}, server CPU ×${r.server_cpu.toFixed(2)}: ${report.verdicts[row.operation]}`,
    );
  }
  log('');
  log('(Node µs, PG µs: CPU time per request of the server process and of PostgreSQL)');
  log(`load average before ${loads(report.configuration.load_average_before)}, after ${loads(report.configuration.load_average_after)}`);
  log(
    `verdict: ${report.verdict} (history ×${report.history_growth}; flat means the largest size costs at most ×${report.flat_limit} the smallest, p50 and CPU)`,
  );
  log('');
}
