/**
 * `npm run bench -- <name> --smoke`: a benchmark on tiny data with about a second of load, so that
 * CI can prove every benchmark still starts, runs its whole code path and passes its own answer
 * checks (test/bench-smoke.test.ts), long before anyone next wants its figures. Only the numbers
 * change: each benchmark's own environment settings get small values (a setting already in the
 * environment wins), so a smoke run goes through exactly the code a real run does. Its figures mean
 * nothing, so its reports go to a temp dir (BENCH_RESULTS_DIR), never into bench/results/, which
 * holds the figures worth keeping.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchmarkName } from './benchmark-names.ts';

const MIB = 1024 * 1024;

/** Per benchmark: the smallest settings that still exercise every step (each file's header says what they mean). */
export const SMOKE_SETTINGS: Record<BenchmarkName, Record<string, string>> = {
  // At least 50 videos: the full stack and the bare route are checked to return the same page of 50.
  list: { BENCH_VIDEOS: '60', BENCH_CONNECTIONS: '2', BENCH_WARMUP: '0.3', BENCH_DURATION: '1', BENCH_ROUNDS: '1' },
  upload: { BENCH_UPLOAD_BYTES: String(8 * MIB), BENCH_UPLOAD_WARMUP_BYTES: String(MIB) },
  // A 360p second: two rungs (240p, 360p) instead of five at 1080p.
  transcode: { BENCH_TRANSCODE_SECONDS: '1', BENCH_TRANSCODE_WIDTH: '640', BENCH_TRANSCODE_HEIGHT: '360' },
  collect: {
    BENCH_COLLECT_VIDEOS: '3',
    BENCH_COLLECT_CONNECTIONS: '2',
    BENCH_COLLECT_WARMUP: '0.3',
    BENCH_COLLECT_DURATION: '1',
  },
  // Two sizes each, so the turns between sizes and the largest-over-smallest figures run too.
  analytics: { BENCH_ANALYTICS_SIZES: '200,400', BENCH_ANALYTICS_ROUNDS: '1', BENCH_ANALYTICS_BLOCK: '2', BENCH_ANALYTICS_WARMUP: '1' },
  routes: {
    BENCH_ROUTE_SIZES: '100,200',
    BENCH_ROUTE_ROUNDS: '1',
    BENCH_ROUTE_BLOCK: '2',
    BENCH_ROUTE_MIN_BLOCK: '1',
    BENCH_ROUTE_WARMUP: '1',
  },
  search: {
    BENCH_SEARCH_SIZES: '100,200',
    BENCH_SEARCH_LEADS: '20',
    BENCH_SEARCH_ROUNDS: '1',
    BENCH_SEARCH_BLOCK: '2',
    BENCH_SEARCH_MIN_BLOCK: '1',
    BENCH_SEARCH_WARMUP: '1',
  },
  webhooks: { BENCH_WEBHOOK_EVENTS: '20', BENCH_WEBHOOK_RATE: '20', BENCH_WEBHOOK_SECONDS: '1' },
  // Three seconds of load at 10 page views a second, so that each kind of request is sent (a lead form only now and then: a page view sends it last).
  soak: {
    BENCH_SOAK_MINUTES: '0.05',
    BENCH_SOAK_WARMUP_SECONDS: '1',
    BENCH_SOAK_IDLE_SECONDS: '1',
    BENCH_SOAK_SAMPLE_SECONDS: '0.5',
    BENCH_SOAK_RATE: '10',
    BENCH_SOAK_VIDEOS: '3',
  },
  // A third of a second per phase, bursts of 3: every phase runs, no figure means anything.
  'sign-in': { BENCH_SIGN_IN_SECONDS: '0.3', BENCH_SIGN_IN_BURST: '3' },
  // An empty first start rather than the demo (whose seed alone takes tens of seconds).
  dashboard: { BENCH_DASHBOARD_DEMO: '0', BENCH_DASHBOARD_WARMUP: '1', BENCH_DASHBOARD_REQUESTS: '2' },
  start: { BENCH_START_ROUNDS: '1' },
};

/** Puts the smoke settings of `names` into the environment where unset; answers the folder reports go to. */
export function useSmokeSettings(names: readonly BenchmarkName[]): string {
  for (const name of names) {
    for (const [setting, value] of Object.entries(SMOKE_SETTINGS[name])) process.env[setting] ||= value;
  }
  process.env.BENCH_RESULTS_DIR ||= mkdtempSync(join(tmpdir(), 'cuepoint-bench-smoke-'));
  return process.env.BENCH_RESULTS_DIR;
}
