/**
 * `npm run bench -- routes`: p50/p99 of get_route, list_routes and get_analytics_summary (its routes
 * section) as a live route's visits grow, over HTTP against a real service process on a throwaway
 * PostgreSQL database, one workspace per size (BENCH_ROUTE_SIZES, default 10k, 100k and 1M visits;
 * route-seed.ts builds each). Before measuring, every answer is checked against what was seeded, so
 * a fast wrong answer cannot pass for a fast one.
 *
 * get_route reads every path row of the route on each call (per-step numbers, choice counts, the most
 * common paths), so its cost is expected to grow with the visits; a slow cell gets fewer requests (at
 * least BENCH_ROUTE_MIN_BLOCK per round) so that the run stays within minutes.
 */

import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { benchDatabaseUrl, countSetting, sizesSetting } from './bench-settings.ts';
import { printProfile } from './cpu-profile.ts';
import { describeMachine } from './machine.ts';
import { createPostgresCpuMeter } from './postgres-cpu.ts';
import { loads, mapRound, startReadBench } from './read-bench-service.ts';
import { writeResultFile } from './result-file.ts';
import { pathKey, type SeededRouteWorkspace, type ServiceCall, seedRouteWorkspace } from './route-seed.ts';
import { cpuSeconds } from './service-process.ts';
import { type BenchPool, percentile, round3, snakeKeys } from './throwaway-database.ts';

const OPERATIONS = [
  { name: 'get_route', path: (routeId: string) => `/v1/routes/${routeId}` },
  { name: 'list_routes', path: (_routeId: string) => '/v1/routes' },
  { name: 'get_analytics_summary', path: (_routeId: string) => '/v1/analytics/summary' },
] as const;

type OperationName = (typeof OPERATIONS)[number]['name'];

/** The p50 an interactive read should stay under (the brief's threshold for looking into get_route). */
const INTERACTIVE_P50_MS = 200;

const settings = () => ({
  databaseUrl: benchDatabaseUrl(),
  sizes: sizesSetting('BENCH_ROUTE_SIZES', '10000,100000,1000000'),
  rounds: countSetting('BENCH_ROUTE_ROUNDS', 5),
  block: countSetting('BENCH_ROUTE_BLOCK', 30),
  minBlock: countSetting('BENCH_ROUTE_MIN_BLOCK', 4),
  /** Time a block may take, judged from the warm-up: slow cells get fewer requests per round. */
  blockMs: countSetting('BENCH_ROUTE_BLOCK_MS', 4000),
  warmup: countSetting('BENCH_ROUTE_WARMUP', 5),
  /** CUEPOINT_DB_TIMEOUT_MS for the service; unset, its default (2 s), as in production. */
  dbTimeoutMs: process.env.BENCH_ROUTE_DB_TIMEOUT_MS ? countSetting('BENCH_ROUTE_DB_TIMEOUT_MS', 2000) : undefined,
});

interface Cell {
  latencies: number[];
  /** Answers other than 200: a 503 is the service's statement_timeout (CUEPOINT_DB_TIMEOUT_MS) firing. */
  failures: Map<number, number>;
  serverCpuSeconds: number;
  postgresCpuMicros: number;
  postgresMeasured: boolean;
  requests: number;
}

interface RouteAnswer {
  starts: number;
  completions: number;
  steps: { step_id: string; reached: number; finished: number; dropped_off: number; choices: { choice_id: string; chosen: number }[] }[];
  paths: { step_ids: string[]; choices: string[]; visits: number; completed: number }[];
}

export async function runRouteBenchmark(log: (line: string) => void): Promise<void> {
  const config = settings();
  if (config.sizes.length === 0) throw new Error('BENCH_ROUTE_SIZES holds no size');
  const startedAt = new Date();
  const loadBefore = loadavg();
  const bench = await startReadBench(config.databaseUrl, config.dbTimeoutMs ? { CUEPOINT_DB_TIMEOUT_MS: String(config.dbTimeoutMs) } : {});
  const { profiling, throwaway, service, pool } = bench;
  try {
    log(`\nroutes benchmark: server pid ${service.pid} (cuepoint start --role api, PostgreSQL database ${throwaway.name})`);
    const database = bench.database();
    const now = new Date();
    const request = async (apiKey: string, method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown) => {
      const response = await pool.request({
        path,
        method,
        headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.statusCode, text: await response.body.text() };
    };
    const dbTimeout = config.dbTimeoutMs ? `${config.dbTimeoutMs} ms` : 'the default 2000 ms';
    const call: ServiceCall = async (apiKey, method, path, body) => {
      const answer = await request(apiKey, method, path, body);
      if (answer.status >= 300) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
      return JSON.parse(answer.text);
    };

    // ── seeding ──────────────────────────────────────────────────────────────────────────────────
    const seeded: SeededRouteWorkspace[] = [];
    const seedBegan = performance.now();
    for (const size of config.sizes) {
      log(`seeding a workspace with a live route and ${size} visits (load average ${loads(loadavg())})`);
      seeded.push(await seedRouteWorkspace(database, call, size, now, log));
    }
    log('vacuum analyze of the route tables');
    for (const table of ['route_visits', 'route_visit_steps', 'routes', 'route_steps', 'route_choices'])
      await sql`vacuum analyze ${sql.table(table)}`.execute(database.db);
    const seedSeconds = (performance.now() - seedBegan) / 1000;
    log(`seeded in ${seedSeconds.toFixed(0)} s`);

    // ── every answer agrees with what was seeded ─────────────────────────────────────────────────
    const spotChecks: SpotCheck[] = [];
    for (const workspace of seeded) spotChecks.push(...(await checkAnswers(database, request, workspace)));
    for (const c of spotChecks.filter((c) => c.timedOut))
      log(`  ${c.visits} visits: ${c.check} answered 503: statement_timeout (${dbTimeout})`);
    const failed = spotChecks.filter((c) => !c.ok && !c.timedOut);
    if (failed.length > 0)
      throw new Error(
        `answers disagree with the seeded visits:\n${failed.map((c) => `${c.visits}: ${c.check}: ${c.expected} vs ${c.actual}`).join('\n')}`,
      );
    log(`every answer given matches the seeded visits (${spotChecks.filter((c) => c.ok).length} checks)`);

    // ── measuring ────────────────────────────────────────────────────────────────────────────────
    const meter = createPostgresCpuMeter(database.db);
    const cells = new Map<string, Cell>();
    const blocks = new Map<string, number>();
    const key = (size: number, operation: OperationName) => `${size} ${operation}`;
    const runBlock = async (workspace: SeededRouteWorkspace, operation: (typeof OPERATIONS)[number], requests: number, cell?: Cell) => {
      const cpuBefore = cpuSeconds(service.pid);
      const stopPostgres = cell ? await meter.start() : undefined;
      const latencies: number[] = [];
      for (let i = 0; i < requests; i++) {
        const began = performance.now();
        const answer = await request(workspace.apiKey, 'GET', operation.path(workspace.routeId));
        latencies.push(performance.now() - began);
        // A timeout is a figure of this benchmark (the read does not fit the service's limit); anything else is a fault.
        if (answer.status === 503 && cell) cell.failures.set(503, (cell.failures.get(503) ?? 0) + 1);
        else if (answer.status !== 200 && answer.status !== 503)
          throw new Error(`${operation.name} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
      if (!cell) return latencies;
      cell.latencies.push(...latencies);
      cell.serverCpuSeconds += cpuSeconds(service.pid) - cpuBefore;
      const pg = await stopPostgres?.();
      if (pg === undefined) cell.postgresMeasured = false;
      else cell.postgresCpuMicros += pg;
      cell.requests += requests;
      return latencies;
    };
    log(`warm-up: ${config.warmup} requests per size and operation`);
    for (const workspace of seeded)
      for (const operation of OPERATIONS) {
        const warm = await runBlock(workspace, operation, config.warmup);
        const median = percentile(warm, 50);
        blocks.set(
          key(workspace.visits, operation.name),
          Math.max(config.minBlock, Math.min(config.block, Math.floor(config.blockMs / Math.max(1, median)))),
        );
      }
    log(
      `measuring: ${config.rounds} rounds, ${config.minBlock}–${config.block} requests per size and operation each (load average ${loads(loadavg())})`,
    );
    const loadDuring: number[][] = [];
    for (let round = 0; round < config.rounds; round++) {
      for (let s = 0; s < seeded.length; s++) {
        const workspace = seeded[(round + s) % seeded.length] as SeededRouteWorkspace;
        for (const operation of OPERATIONS) {
          const k = key(workspace.visits, operation.name);
          const cell = cells.get(k) ?? {
            latencies: [],
            failures: new Map(),
            serverCpuSeconds: 0,
            postgresCpuMicros: 0,
            postgresMeasured: true,
            requests: 0,
          };
          cells.set(k, cell);
          await runBlock(workspace, operation, blocks.get(k) as number, cell);
        }
      }
      loadDuring.push(loadavg().map(round3));
      log(`  round ${round + 1} of ${config.rounds} done (load average ${loads(loadavg())})`);
    }

    const results = OPERATIONS.map((operation) => {
      const bySize = seeded.map((workspace) => {
        const cell = cells.get(key(workspace.visits, operation.name)) as Cell;
        const timedOut = cell.failures.get(503) ?? 0;
        return {
          visits: workspace.visits,
          requests: cell.requests,
          timed_out: timedOut,
          latency_ms: {
            p50: round3(percentile(cell.latencies, 50)),
            p90: round3(percentile(cell.latencies, 90)),
            p99: round3(percentile(cell.latencies, 99)),
            mean: round3(cell.latencies.reduce((a, b) => a + b, 0) / Math.max(1, cell.latencies.length)),
          },
          server_cpu_micros_per_request: round3((cell.serverCpuSeconds * 1e6) / Math.max(1, cell.requests)),
          postgres_cpu_micros_per_request: cell.postgresMeasured ? round3(cell.postgresCpuMicros / Math.max(1, cell.requests)) : null,
          verdict:
            timedOut > 0
              ? `${timedOut} of ${cell.requests} answered 503 (statement_timeout, ${dbTimeout})`
              : percentile(cell.latencies, 50) <= INTERACTIVE_P50_MS
                ? 'interactive'
                : `p50 over ${INTERACTIVE_P50_MS} ms`,
        };
      });
      const first = bySize[0] as (typeof bySize)[number];
      const last = bySize[bySize.length - 1] as (typeof bySize)[number];
      return {
        operation: operation.name,
        by_size: bySize,
        largest_over_smallest: {
          p50: round3(last.latency_ms.p50 / first.latency_ms.p50),
          p99: round3(last.latency_ms.p99 / first.latency_ms.p99),
          postgres_cpu:
            first.postgres_cpu_micros_per_request && last.postgres_cpu_micros_per_request
              ? round3(last.postgres_cpu_micros_per_request / first.postgres_cpu_micros_per_request)
              : null,
        },
      };
    });
    const slow = results.flatMap((r) =>
      r.by_size.filter((s) => s.verdict !== 'interactive').map((s) => `${r.operation} at ${s.visits} (${s.verdict})`),
    );
    const version = (await sql<{ server_version: string }>`show server_version`.execute(database.db)).rows[0]?.server_version;
    const report = {
      benchmark: 'route reads: p50/p99 of get_route, list_routes and get_analytics_summary as a live route’s visits grow',
      date: startedAt.toISOString(),
      machine: describeMachine(),
      configuration: {
        server: 'cuepoint start --role api, separate process, throwaway PostgreSQL database (one workspace per size)',
        postgres: version ?? 'unknown',
        client: 'undici, one keep-alive connection, one request at a time, in the benchmark process',
        requests: OPERATIONS.map((o) => `GET ${o.path('{route_id}')} (default range and page)`),
        sizes: config.sizes,
        rounds: config.rounds,
        block: { most: config.block, least: config.minBlock, block_ms: config.blockMs, chosen: Object.fromEntries(blocks) },
        warmup: config.warmup,
        service_db_timeout: dbTimeout,
        seeding:
          'one live 6-step route built through the API (create_route, add_route_branches, update_route), 2 draft routes, visits ' +
          'over 90 days in bulk SQL (generate_series) on 13 paths: drop-offs, end card, link, last steps, lead form (bench/route-seed.ts)',
        seed_seconds: round3(seedSeconds),
        load_average_before: loadBefore.map(round3),
        load_average_after_each_round: loadDuring,
        load_average_after: loadavg().map(round3),
      },
      workspaces: seeded.map((w) => ({ visits: w.visits, rows: w.rows, seed_seconds: mapRound(w.seconds) })),
      spot_checks: spotChecks,
      results,
      interactive_p50_ms: INTERACTIVE_P50_MS,
      verdict: slow.length === 0 ? `every read under ${INTERACTIVE_P50_MS} ms p50` : `not interactive: ${slow.join('; ')}`,
      server_profile: null as ReturnType<NonNullable<typeof profiling>['summarise']> | null,
    };
    await bench.stopService(); // the profile is written as the process exits
    report.server_profile = profiling?.summarise() ?? null;
    printRoutes(log, report);
    if (report.server_profile) printProfile(log, report.server_profile);
    log(`report written to ${writeResultFile(snakeKeys(report), startedAt, 'routes')}`);
  } finally {
    await bench.tearDown();
  }
}

interface SpotCheck {
  visits: number;
  check: string;
  expected: number | string;
  actual: number | string;
  ok: boolean;
  /** The read answered 503 (statement_timeout): nothing to compare, and a figure rather than a fault. */
  timedOut: boolean;
}

type Request = (apiKey: string, method: 'GET', path: string) => Promise<{ status: number; text: string }>;

/** get_route against the numbers worked out from the seeded paths; list_routes and the summary against SQL counts. */
async function checkAnswers(database: BenchPool, request: Request, workspace: SeededRouteWorkspace): Promise<SpotCheck[]> {
  const checks: SpotCheck[] = [];
  const same = (check: string, expected: number | string, actual: number | string | undefined) =>
    checks.push({ visits: workspace.visits, check, expected, actual: actual ?? 'missing', ok: expected === actual, timedOut: false });
  const read = async <T>(operation: string, path: string): Promise<T | undefined> => {
    const answer = await request(workspace.apiKey, 'GET', path);
    if (answer.status === 200) return JSON.parse(answer.text) as T;
    if (answer.status !== 503) throw new Error(`${operation} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    checks.push({ visits: workspace.visits, check: operation, expected: 200, actual: 503, ok: false, timedOut: true });
    return undefined;
  };
  const { expected } = workspace;

  const route = await read<RouteAnswer>('get_route', `/v1/routes/${workspace.routeId}`);
  if (route) {
    same('get_route starts', expected.starts, route.starts);
    same('get_route completions', expected.completions, route.completions);
    for (const step of route.steps) {
      const want = expected.steps.get(step.step_id);
      same(`get_route step ${step.step_id} reached`, want?.reached ?? -1, step.reached);
      same(`get_route step ${step.step_id} finished`, want?.finished ?? -1, step.finished);
      same(`get_route step ${step.step_id} dropped_off`, want?.droppedOff ?? -1, step.dropped_off);
      for (const choice of step.choices)
        same(`get_route choice ${choice.choice_id} chosen`, expected.choices.get(choice.choice_id) ?? -1, choice.chosen);
    }
    same('get_route steps', expected.steps.size, route.steps.length);
    const top = [...expected.paths.entries()]
      .sort(([ka, a], [kb, b]) => b.visits - a.visits || b.completed - a.completed || (ka < kb ? -1 : 1))
      .slice(0, route.paths.length);
    same('get_route paths listed', Math.min(5, expected.paths.size), route.paths.length);
    route.paths.forEach((path, i) => {
      const [wantKey, want] = top[i] ?? ['missing', { visits: -1, completed: -1 }];
      same(
        `get_route path ${i + 1}`,
        `${wantKey} ${want.visits}/${want.completed}`,
        `${pathKey(path.step_ids, path.choices)} ${path.visits}/${path.completed}`,
      );
    });
  }

  const list = await read<{ routes: { route_id: string; starts: number; completions: number }[] }>('list_routes', '/v1/routes');
  if (list) {
    const listed = list.routes.find((r) => r.route_id === workspace.routeId);
    same('list_routes routes listed', workspace.rows.routes, list.routes.length);
    same('list_routes starts', expected.starts, listed?.starts);
    same('list_routes completions', expected.completions, listed?.completions);
  }

  const summary = await read<{ period: { from_date: string; to_date: string }; routes: { starts: number; completions: number } }>(
    'get_analytics_summary',
    '/v1/analytics/summary',
  );
  if (summary) {
    const raw = (
      await sql<{ starts: number; completions: number }>`
        select count(*)::int as starts, count(completed_at)::int as completions from route_visits
        where workspace_id = ${workspace.workspaceId}
          and started_at >= (${summary.period.from_date}::date)::timestamp at time zone ${workspace.timeZone}
          and started_at < (${summary.period.to_date}::date + 1)::timestamp at time zone ${workspace.timeZone}`.execute(database.db)
    ).rows[0];
    same(`summary routes starts (${summary.period.from_date}…${summary.period.to_date})`, raw?.starts ?? -1, summary.routes.starts);
    same('summary routes completions', raw?.completions ?? -1, summary.routes.completions);
  }
  return checks;
}

function printRoutes(
  log: (line: string) => void,
  report: {
    workspaces: { visits: number; rows: SeededRouteWorkspace['rows']; seed_seconds: SeededRouteWorkspace['seconds'] }[];
    results: {
      operation: string;
      by_size: {
        visits: number;
        requests: number;
        timed_out: number;
        latency_ms: { p50: number; p90: number; p99: number };
        server_cpu_micros_per_request: number;
        postgres_cpu_micros_per_request: number | null;
        verdict: string;
      }[];
      largest_over_smallest: { p50: number; p99: number };
    }[];
    configuration: { load_average_before: number[]; load_average_after: number[] };
    verdict: string;
  },
): void {
  const n = (value: number) => value.toLocaleString('en-US');
  log('');
  log(`${'visits'.padStart(10)}${'path rows'.padStart(12)}${'seed s'.padStart(9)}`);
  for (const w of report.workspaces)
    log(`${n(w.visits).padStart(10)}${n(w.rows.routeVisitSteps).padStart(12)}${w.seed_seconds.visits.toFixed(1).padStart(9)}`);
  log('');
  log(
    `${'operation'.padEnd(24)}${'visits'.padStart(10)}${'reqs'.padStart(6)}${'503s'.padStart(6)}${'p50 ms'.padStart(10)}${'p90 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'Node µs'.padStart(9)}${'PG µs'.padStart(10)}`,
  );
  for (const row of report.results) {
    for (const s of row.by_size)
      log(
        `${row.operation.padEnd(24)}${n(s.visits).padStart(10)}${String(s.requests).padStart(6)}${String(s.timed_out).padStart(6)}${s.latency_ms.p50.toFixed(2).padStart(10)}${s.latency_ms.p90.toFixed(2).padStart(10)}${s.latency_ms.p99.toFixed(2).padStart(10)}${s.server_cpu_micros_per_request.toFixed(0).padStart(9)}${(s.postgres_cpu_micros_per_request?.toFixed(0) ?? '?').padStart(10)}`,
      );
    const r = row.largest_over_smallest;
    log(`${''.padEnd(24)}${'largest/smallest:'.padStart(10)} p50 ×${r.p50.toFixed(2)}, p99 ×${r.p99.toFixed(2)}`);
  }
  log('');
  log(
    "(503s: answers cut off by the service's statement_timeout; Node µs, PG µs: CPU time per request of the server process and of PostgreSQL)",
  );
  log(`load average before ${loads(report.configuration.load_average_before)}, after ${loads(report.configuration.load_average_after)}`);
  log(`verdict: ${report.verdict}`);
  log('');
}
