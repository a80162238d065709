/**
 * `npm run bench -- search`: p50/p99 of search_transcripts (GET /v1/transcripts/search) and search
 * (GET /v1/search) over HTTP against a real service process on a throwaway PostgreSQL database, one
 * workspace per library size (BENCH_SEARCH_SIZES, default 1k and 10k videos, each with a 1,000-word
 * transcript in 100 segments; search-seed.ts builds each), for queries of every kind: a word said in
 * ten videos, a word in most videos, a word in a third of all segments, a quoted phrase, an
 * exclusion, and for search a misspelt title and a lead's address. Before anything is timed, the
 * answers are checked against the seed (search-checks.ts); after, the transcript query and the
 * video query are run under EXPLAIN (ANALYZE, BUFFERS) to show which index did the work
 * (search-plans.ts).
 *
 * The sizes take turns round after round, so the machine's load falls on all alike; a slow cell
 * gets fewer requests per round (at least BENCH_SEARCH_MIN_BLOCK) so the run stays within minutes.
 */

import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { findMoments, findVideoMatches } from '../src/domains/search/index.ts';
import { benchDatabaseUrl, countSetting, sizesSetting } from './bench-settings.ts';
import { describeMachine } from './machine.ts';
import { createPostgresCpuMeter } from './postgres-cpu.ts';
import { loads, startReadBench } from './read-bench-service.ts';
import { writeResultFile } from './result-file.ts';
import type { ServiceCall } from './route-seed.ts';
import { type BroadQueryQuality, checkSearchAnswers, QUERIES, type QueryName, type SpotCheck } from './search-checks.ts';
import { type CapturedPlan, explainQueries } from './search-plans.ts';
import { type SeededSearchWorkspace, seedSearchWorkspace } from './search-seed.ts';
import { cpuSeconds } from './service-process.ts';
import { percentile, round3, snakeKeys } from './throwaway-database.ts';

/** The reads measured: each operation with the queries that mean something for it. */
const READS = [
  ...(['selective', 'common', 'veryCommon', 'phrase', 'exclusion'] as const).map((query) => ({
    operation: 'search_transcripts' as const,
    query,
    path: (q: string) => `/v1/transcripts/search?q=${encodeURIComponent(q)}`,
  })),
  ...(['selective', 'common', 'veryCommon', 'phrase', 'exclusion', 'misspeltTitle', 'leadEmail'] as const).map((query) => ({
    operation: 'search' as const,
    query,
    path: (q: string) => `/v1/search?q=${encodeURIComponent(q)}`,
  })),
];

type Read = (typeof READS)[number];

/** Queries whose matches do not grow with the library: their p50 should stay under this and stay flat. */
const SELECTIVE: readonly QueryName[] = ['selective', 'phrase', 'exclusion', 'misspeltTitle', 'leadEmail'];
const SELECTIVE_P50_MS = 50;

const settings = () => ({
  databaseUrl: benchDatabaseUrl(),
  sizes: sizesSetting('BENCH_SEARCH_SIZES', '1000,10000', 100),
  leads: countSetting('BENCH_SEARCH_LEADS', 300),
  rounds: countSetting('BENCH_SEARCH_ROUNDS', 5),
  block: countSetting('BENCH_SEARCH_BLOCK', 20),
  minBlock: countSetting('BENCH_SEARCH_MIN_BLOCK', 3),
  /** Time a block may take, judged from the warm-up: slow cells get fewer requests per round. */
  blockMs: countSetting('BENCH_SEARCH_BLOCK_MS', 3000),
  warmup: countSetting('BENCH_SEARCH_WARMUP', 3),
});

interface Cell {
  latencies: number[];
  /** 503s: the service's statement_timeout (CUEPOINT_DB_TIMEOUT_MS, 2 s by default) cut the query off. */
  timedOut: number;
  serverCpuSeconds: number;
  postgresCpuMicros: number;
  postgresMeasured: boolean;
}

export async function runSearchBenchmark(log: (line: string) => void): Promise<void> {
  const config = settings();
  if (config.sizes.length === 0) throw new Error('BENCH_SEARCH_SIZES holds no size of at least 100 videos');
  const startedAt = new Date();
  const loadBefore = loadavg();
  const bench = await startReadBench(config.databaseUrl);
  const { throwaway, service, pool } = bench;
  try {
    log(`\nsearch benchmark: server pid ${service.pid} (cuepoint start --role api, PostgreSQL database ${throwaway.name})`);
    const database = bench.database();
    const get = async (apiKey: string, path: string) => {
      const response = await pool.request({ path, method: 'GET', headers: { authorization: `Bearer ${apiKey}` } });
      return { status: response.statusCode, text: await response.body.text() };
    };
    const call: ServiceCall = async (apiKey, method, path, body) => {
      const response = await pool.request({
        path,
        method,
        headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.body.text();
      if (response.statusCode >= 300) throw new Error(`${method} ${path} answered ${response.statusCode}: ${text.slice(0, 500)}`);
      return JSON.parse(text);
    };

    // ── seeding ──────────────────────────────────────────────────────────────────────────────────
    const seeded: SeededSearchWorkspace[] = [];
    const seedBegan = performance.now();
    for (const size of config.sizes) {
      log(`seeding a workspace with ${size} videos and their transcripts (load average ${loads(loadavg())})`);
      seeded.push(await seedSearchWorkspace(database, call, size, config.leads, new Date(), log));
    }
    log('vacuum analyze of the searched tables');
    for (const table of [
      'videos',
      'video_transcripts',
      'transcript_segments',
      'leads',
      'lead_activities',
      'routes',
      'route_steps',
      'route_choices',
    ])
      await sql`vacuum analyze ${sql.table(table)}`.execute(database.db);
    const seedSeconds = (performance.now() - seedBegan) / 1000;
    const size = (
      await sql<{ segments: string; words_index: string }>`
        select pg_size_pretty(pg_total_relation_size('transcript_segments')) as segments,
          pg_size_pretty(pg_relation_size('transcript_segments_words')) as words_index`.execute(database.db)
    ).rows[0];
    log(
      `seeded in ${seedSeconds.toFixed(0)} s: transcript_segments ${size?.segments} with its indexes, the words' GIN index ${size?.words_index}`,
    );

    // ── every answer agrees with what was seeded ─────────────────────────────────────────────────
    const spotChecks: SpotCheck[] = [];
    const quality: BroadQueryQuality[] = [];
    for (const workspace of seeded) {
      const checked = await checkSearchAnswers(database, get, workspace);
      spotChecks.push(...checked.checks);
      quality.push(...checked.quality);
    }
    for (const c of spotChecks.filter((c) => c.timedOut))
      log(`  ${c.videos} videos: ${c.check} answered 503: statement_timeout (the service's default 2000 ms)`);
    const failed = spotChecks.filter((c) => !c.ok && !c.timedOut);
    if (failed.length > 0)
      throw new Error(
        `answers disagree with the seed:\n${failed.map((c) => `${c.videos}: ${c.check}: ${c.expected} vs ${c.actual}`).join('\n')}`,
      );
    log(`every answer given matches the seed (${spotChecks.filter((c) => c.ok).length} checks)`);

    // ── measuring ────────────────────────────────────────────────────────────────────────────────
    const meter = createPostgresCpuMeter(database.db);
    const cells = new Map<string, Cell>();
    const blocks = new Map<string, number>();
    const key = (videos: number, read: Read) => `${videos} ${read.operation} ${read.query}`;
    const runBlock = async (workspace: SeededSearchWorkspace, read: Read, requests: number, cell?: Cell) => {
      const cpuBefore = cpuSeconds(service.pid);
      const stopPostgres = cell ? await meter.start() : undefined;
      const latencies: number[] = [];
      for (let i = 0; i < requests; i++) {
        const began = performance.now();
        const answer = await get(workspace.apiKey, read.path(QUERIES[read.query]));
        latencies.push(performance.now() - began);
        if (answer.status === 503 && cell) cell.timedOut++;
        else if (answer.status !== 200 && answer.status !== 503)
          throw new Error(`${read.operation} ${read.query} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
      if (!cell) return latencies;
      cell.latencies.push(...latencies);
      cell.serverCpuSeconds += cpuSeconds(service.pid) - cpuBefore;
      const pg = await stopPostgres?.();
      if (pg === undefined) cell.postgresMeasured = false;
      else cell.postgresCpuMicros += pg;
      return latencies;
    };
    log(`warm-up: ${config.warmup} requests per size and read`);
    for (const workspace of seeded)
      for (const read of READS) {
        const median = percentile(await runBlock(workspace, read, config.warmup), 50);
        blocks.set(
          key(workspace.videos, read),
          Math.max(config.minBlock, Math.min(config.block, Math.floor(config.blockMs / Math.max(1, median)))),
        );
      }
    log(
      `measuring: ${config.rounds} rounds, ${config.minBlock}–${config.block} requests per size and read each (load average ${loads(loadavg())})`,
    );
    const loadDuring: number[][] = [];
    for (let round = 0; round < config.rounds; round++) {
      for (let s = 0; s < seeded.length; s++) {
        const workspace = seeded[(round + s) % seeded.length] as SeededSearchWorkspace;
        for (const read of READS) {
          const k = key(workspace.videos, read);
          const cell = cells.get(k) ?? { latencies: [], timedOut: 0, serverCpuSeconds: 0, postgresCpuMicros: 0, postgresMeasured: true };
          cells.set(k, cell);
          await runBlock(workspace, read, blocks.get(k) as number, cell);
        }
      }
      loadDuring.push(loadavg().map(round3));
      log(`  round ${round + 1} of ${config.rounds} done (load average ${loads(loadavg())})`);
    }

    // ── plans ────────────────────────────────────────────────────────────────────────────────────
    const plans: { videos: number; query: string; what: string; plans: CapturedPlan[] }[] = [];
    for (const workspace of seeded) {
      for (const query of ['selective', 'veryCommon'] as const) {
        const q = QUERIES[query];
        plans.push({
          videos: workspace.videos,
          query: q,
          what: 'findMoments (search_transcripts, limit 10)',
          plans: await explainQueries(throwaway.url, (db) =>
            findMoments(db, { workspaceId: workspace.workspaceId, q, includeArchived: false, limit: 10 }),
          ),
        });
      }
      for (const query of ['misspeltTitle', 'veryCommon'] as const)
        plans.push({
          videos: workspace.videos,
          query: QUERIES[query],
          what: 'findVideoMatches (search, limit 20)',
          plans: await explainQueries(throwaway.url, (db) => findVideoMatches(db, workspace.workspaceId, QUERIES[query], 20)),
        });
    }

    const results = READS.map((read) => {
      const bySize = seeded.map((workspace) => {
        const cell = cells.get(key(workspace.videos, read)) as Cell;
        const requests = cell.latencies.length;
        return {
          videos: workspace.videos,
          requests,
          timedOut: cell.timedOut,
          latencyMs: {
            p50: round3(percentile(cell.latencies, 50)),
            p90: round3(percentile(cell.latencies, 90)),
            p99: round3(percentile(cell.latencies, 99)),
          },
          serverCpuMicrosPerRequest: round3((cell.serverCpuSeconds * 1e6) / Math.max(1, requests)),
          postgresCpuMicrosPerRequest: cell.postgresMeasured ? round3(cell.postgresCpuMicros / Math.max(1, requests)) : null,
        };
      });
      const first = bySize[0] as (typeof bySize)[number];
      const last = bySize[bySize.length - 1] as (typeof bySize)[number];
      return {
        operation: read.operation,
        query: read.query,
        q: QUERIES[read.query],
        bySize,
        largestOverSmallest: {
          p50: round3(last.latencyMs.p50 / first.latencyMs.p50),
          p99: round3(last.latencyMs.p99 / first.latencyMs.p99),
        },
      };
    });
    const largest = seeded[seeded.length - 1] as SeededSearchWorkspace;
    const slow = results
      .filter((r) => SELECTIVE.includes(r.query))
      .flatMap((r) =>
        r.bySize.filter((s) => s.videos === largest.videos && s.latencyMs.p50 > SELECTIVE_P50_MS).map(() => `${r.operation} ${r.query}`),
      );
    const timedOut = results.flatMap((r) =>
      r.bySize.filter((s) => s.timedOut > 0).map((s) => `${r.operation} ${r.query} at ${s.videos} videos (${s.timedOut} of ${s.requests})`),
    );
    const version = (await sql<{ server_version: string }>`show server_version`.execute(database.db)).rows[0]?.server_version;
    const report = {
      benchmark: 'search: p50/p99 of search_transcripts and search by library size and kind of query',
      date: startedAt.toISOString(),
      machine: describeMachine(),
      configuration: {
        server: 'cuepoint start --role api, separate process, throwaway PostgreSQL database (one workspace per size)',
        postgres: version ?? 'unknown',
        client: 'undici, one keep-alive connection, one request at a time, in the benchmark process',
        requests: READS.map((r) => `${r.operation}: GET ${r.path(QUERIES[r.query])}`),
        sizes: config.sizes,
        leadsPerWorkspace: config.leads,
        rounds: config.rounds,
        block: { most: config.block, least: config.minBlock, blockMs: config.blockMs, chosen: Object.fromEntries(blocks) },
        warmup: config.warmup,
        seeding:
          'per size: videos with 1,000-word transcripts in 100 segments of 4 s (45% function words, the rest Zipf over 20,000 ranks), ' +
          'planted words in known segments, leads with notes, 4 routes through the API; bulk SQL (bench/search-seed.ts)',
        seedSeconds: round3(seedSeconds),
        tableSizes: size,
        loadAverageBefore: loadBefore.map(round3),
        loadAverageAfterEachRound: loadDuring,
        loadAverageAfter: loadavg().map(round3),
      },
      workspaces: seeded.map((w) => ({
        videos: w.videos,
        rows: w.rows,
        seedSeconds: Object.fromEntries(Object.entries(w.seconds).map(([k, v]) => [k, round3(v)])),
      })),
      spotChecks,
      broadQueries: quality,
      results,
      plans,
      selectiveP50Ms: SELECTIVE_P50_MS,
      verdict: [
        slow.length === 0
          ? `every selective read under ${SELECTIVE_P50_MS} ms p50 at ${largest.videos} videos`
          : `over ${SELECTIVE_P50_MS} ms p50: ${slow.join(', ')}`,
        ...(timedOut.length > 0 ? [`503 (statement_timeout): ${timedOut.join(', ')}`] : []),
      ].join('; '),
    };
    printSearch(log, report);
    log(`report written to ${writeResultFile(snakeKeys(report), startedAt, 'search')}`);
  } finally {
    await bench.tearDown();
  }
}

function printSearch(
  log: (line: string) => void,
  report: {
    workspaces: { videos: number; rows: SeededSearchWorkspace['rows'] }[];
    broadQueries: BroadQueryQuality[];
    results: {
      operation: string;
      query: string;
      q: string;
      bySize: {
        videos: number;
        requests: number;
        timedOut: number;
        latencyMs: { p50: number; p90: number; p99: number };
        serverCpuMicrosPerRequest: number;
        postgresCpuMicrosPerRequest: number | null;
      }[];
      largestOverSmallest: { p50: number; p99: number };
    }[];
    plans: { videos: number; query: string; what: string; plans: CapturedPlan[] }[];
    configuration: { loadAverageBefore: number[]; loadAverageAfter: number[]; loadAverageAfterEachRound: number[][] };
    verdict: string;
  },
): void {
  const n = (value: number) => value.toLocaleString('en-US');
  log('');
  for (const w of report.workspaces)
    log(
      `${n(w.videos)} videos: ${n(w.rows.segments)} transcript segments, ${w.rows.leads} leads (${w.rows.notes} notes), ${w.rows.routes} routes`,
    );
  for (const b of report.broadQueries)
    log(
      `  "${b.q}" at ${n(b.videos)} videos: ${n(b.matchingSegments)} segments match; best score in the library ${b.bestInLibrary}, best returned ${b.bestReturned}`,
    );
  for (const p of report.plans) {
    log('');
    log(`plan: ${p.what}, q=${p.query}, ${n(p.videos)} videos`);
    for (const plan of p.plans) for (const line of plan.keyLines) log(`  ${line}`);
  }
  log('');
  log(
    `${'operation'.padEnd(20)}${'query'.padEnd(34)}${'videos'.padStart(8)}${'reqs'.padStart(6)}${'503s'.padStart(6)}${'p50 ms'.padStart(9)}${'p90 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'Node µs'.padStart(9)}${'PG µs'.padStart(10)}`,
  );
  for (const row of report.results) {
    for (const s of row.bySize)
      log(
        `${row.operation.padEnd(20)}${`${row.query} ${row.q}`.slice(0, 33).padEnd(34)}${n(s.videos).padStart(8)}${String(s.requests).padStart(6)}${String(s.timedOut).padStart(6)}${s.latencyMs.p50.toFixed(1).padStart(9)}${s.latencyMs.p90.toFixed(1).padStart(9)}${s.latencyMs.p99.toFixed(1).padStart(9)}${s.serverCpuMicrosPerRequest.toFixed(0).padStart(9)}${(s.postgresCpuMicrosPerRequest?.toFixed(0) ?? '?').padStart(10)}`,
      );
    log(`${''.padEnd(54)}largest/smallest: p50 ×${row.largestOverSmallest.p50.toFixed(2)}, p99 ×${row.largestOverSmallest.p99.toFixed(2)}`);
  }
  log('');
  log(
    "(503s: answers cut off by the service's statement_timeout; Node µs, PG µs: CPU time per request of the server process and of PostgreSQL)",
  );
  log(
    `load average before ${loads(report.configuration.loadAverageBefore)}, after each round ${report.configuration.loadAverageAfterEachRound.map(loads).join(' | ')}, after ${loads(report.configuration.loadAverageAfter)}`,
  );
  log(`verdict: ${report.verdict}`);
  log('');
}
