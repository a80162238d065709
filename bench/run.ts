/**
 * `npm run bench [-- list|upload|transcode|collect|analytics|routes|search|webhooks|all] [--store local|s3]`: runs one benchmark, or all of them, one after the other.
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
 * Each prints its figures and writes a JSON report to bench/results/. Exits 0 whatever the
 * performance verdicts: they are reports, not gates; 1 when collect finds an acknowledged batch
 * missing from the database (a correctness failure, not a slow run); 2 on an unknown benchmark name.
 */
import { runAnalyticsBenchmark } from './analytics-reads.ts';
import { runCollectBenchmark } from './collect.ts';
import { runListVideosBenchmark } from './list-videos.ts';
import { runRouteBenchmark } from './route-reads.ts';
import { runSearchBenchmark } from './search-reads.ts';
import { runTranscodeBenchmark } from './transcode.ts';
import { runUploadBenchmark } from './upload.ts';

const args = process.argv.slice(2);
const storeFlag = args.indexOf('--store');
const store = storeFlag < 0 ? 'local' : args[storeFlag + 1];
if (store !== 'local' && store !== 's3') {
  process.stderr.write(`--store must be local or s3, not ${store ?? 'nothing'}\n`);
  process.exit(2);
}

const BENCHMARKS = {
  list: runListVideosBenchmark,
  upload: (log: (line: string) => void) => runUploadBenchmark(log, store),
  transcode: runTranscodeBenchmark,
  collect: runCollectBenchmark,
  analytics: runAnalyticsBenchmark,
  routes: runRouteBenchmark,
  search: runSearchBenchmark,
  webhooks: async () => {
    await import('./webhooks.ts');
  },
} as const;

type Name = keyof typeof BENCHMARKS;

const log = (line: string) => process.stdout.write(`${line}\n`);

const requested = storeFlag < 0 ? args : args.filter((_, at) => at !== storeFlag && at !== storeFlag + 1);
const names: Name[] =
  requested.length === 0 ? ['list'] : requested.includes('all') ? (Object.keys(BENCHMARKS) as Name[]) : (requested as Name[]);
const unknown = names.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  process.stderr.write(
    `Unknown benchmark: ${unknown.join(', ')}\nUsage: npm run bench [-- list|upload|transcode|collect|analytics|routes|search|webhooks|all] [--store local|s3]\n`,
  );
  process.exit(2);
}
for (const name of names) await BENCHMARKS[name](log);
