/**
 * `npm run bench [-- list|upload|transcode|collect|analytics|routes|search|webhooks|soak|sign-in|start|dashboard|all] [--store local|s3] [--smoke]`:
 * runs one benchmark, or all of them, one after the other.
 * - list (the default): full-stack `GET /v1/videos?limit=50` against a bare Fastify route running the
 *   same SQL (list-videos.ts); needs PostgreSQL.
 * - upload: throughput of a 1 GiB `PUT /uploads/{token}` and the server process's memory while it
 *   streams in (upload.ts), into the local folder or, with `--store s3`, an S3-compatible bucket
 *   (s3rver, started by the benchmark); needs nothing else running.
 * - transcode: each HLS rendition of a 60 s 1080p source (CPU and wall time), then upload → first
 *   playable rendition and → whole ladder on a real service (transcode.ts); needs nothing running.
 * - collect: `POST /collect` throughput of a real service process on PostgreSQL with realistic
 *   batches, then the database counted against what was acknowledged (collect.ts).
 * - analytics: p50/p99 of get_video_analytics, get_video_retention and get_analytics_summary on
 *   workspaces with 10k, 100k and 1M seeded sessions (analytics-reads.ts); needs PostgreSQL.
 * - routes: p50/p99 of get_route, list_routes and get_analytics_summary on workspaces with a live
 *   6-step route and 10k, 100k and 1M seeded visits (route-reads.ts); needs PostgreSQL.
 * - search: p50/p99 of search_transcripts and search on libraries of 1k and 10k videos with 1,000-word
 *   transcripts, for selective words, common words, a phrase, an exclusion, a misspelt title and a
 *   lead's address, answers checked against the seed first (search-reads.ts); needs PostgreSQL.
 * - webhooks: deliveries per second to a fast loopback receiver and event-to-arrival p50/p99
 *   (webhooks.ts, a script that runs when loaded); needs PostgreSQL.
 * - soak: a real service process under 15 minutes of a steady mixed load (watch pages, viewing
 *   batches, lead forms, REST, MCP), its RSS read every 10 s and after a minute idle: does its memory
 *   level off (soak.ts); the embedded database, or PostgreSQL (and Redis) when given.
 * - sign-in: a password sign-in's latency alone and in bursts of 20 at once, and whether the bursts move
 *   other requests' latency (sign-in.ts); the embedded database.
 * - start: seconds from spawning `npm start` to its first answer, on an empty data directory and on
 *   existing data, and `node src/main.ts start` beside it (first-start.ts); needs nothing running.
 * - dashboard: each dashboard page's p50/p95, its database statements and its compressed JavaScript, on
 *   the demo library (dashboard.ts); needs nothing running.
 * Each prints its figures and writes a JSON report to bench/results/ (BENCH_RESULTS_DIR: elsewhere).
 * `--smoke` runs the same code on tiny data for about a second of load, its reports in a temp dir
 * (smoke.ts): a check that the benchmark still works, not a measurement. Exits 0 whatever the
 * performance verdicts: they are reports, not gates; 1 when collect finds an acknowledged batch
 * missing from the database (a correctness failure, not a slow run), or when a benchmark fails; 2 on
 * an unknown benchmark name or option.
 */
import { BENCHMARK_NAMES, type BenchmarkName } from './benchmark-names.ts';
import { useSmokeSettings } from './smoke.ts';

const USAGE =
  'Usage: npm run bench [-- list|upload|transcode|collect|analytics|routes|search|webhooks|soak|sign-in|start|dashboard|all] [--store local|s3] [--smoke]\n';

const args = process.argv.slice(2);
const storeFlag = args.indexOf('--store');
const store = storeFlag < 0 ? 'local' : args[storeFlag + 1];
if (store !== 'local' && store !== 's3') {
  process.stderr.write(`--store must be local or s3, not ${store ?? 'nothing'}\n`);
  process.exit(2);
}
const smoke = args.includes('--smoke');

type Log = (line: string) => void;

// Each benchmark's module is loaded only when it runs: loading them all (the whole app, the S3 SDK,
// s3rver) cost two CPU seconds before any benchmark started, on every run.
const BENCHMARKS: Record<BenchmarkName, (log: Log) => Promise<void>> = {
  list: async (log: Log) => (await import('./list-videos.ts')).runListVideosBenchmark(log),
  upload: async (log: Log) => (await import('./upload.ts')).runUploadBenchmark(log, store),
  transcode: async (log: Log) => (await import('./transcode.ts')).runTranscodeBenchmark(log),
  collect: async (log: Log) => (await import('./collect.ts')).runCollectBenchmark(log),
  analytics: async (log: Log) => (await import('./analytics-reads.ts')).runAnalyticsBenchmark(log),
  routes: async (log: Log) => (await import('./route-reads.ts')).runRouteBenchmark(log),
  search: async (log: Log) => (await import('./search-reads.ts')).runSearchBenchmark(log),
  webhooks: async (_log: Log) => {
    await import('./webhooks.ts');
  },
  soak: async (log: Log) => (await import('./soak.ts')).runSoakBenchmark(log),
  'sign-in': async (log: Log) => (await import('./sign-in.ts')).runSignInBenchmark(log),
  dashboard: async (log: Log) => (await import('./dashboard.ts')).runDashboardBenchmark(log),
  start: async (log: Log) => (await import('./first-start.ts')).runFirstStartBenchmark(log),
};

const log: Log = (line) => process.stdout.write(`${line}\n`);

const requested = args.filter((arg, at) => arg !== '--smoke' && (storeFlag < 0 || (at !== storeFlag && at !== storeFlag + 1)));
const names: BenchmarkName[] =
  requested.length === 0 ? ['list'] : requested.includes('all') ? [...BENCHMARK_NAMES] : (requested as BenchmarkName[]);
const unknown = names.filter((name) => !(BENCHMARK_NAMES as readonly string[]).includes(name));
if (unknown.length > 0) {
  process.stderr.write(`Unknown benchmark: ${unknown.join(', ')}\n${USAGE}`);
  process.exit(2);
}
if (smoke) log(`smoke run (tiny data, figures meaningless); reports go to ${useSmokeSettings(names)}`);
for (const name of names) await BENCHMARKS[name](log);
