/**
 * The benchmarks `npm run bench` knows. run.ts must have each, smoke.ts must size each, and the
 * suite's smoke test (test/bench-smoke.test.ts) checks it runs each: a benchmark added in one place
 * and forgotten in another fails the type check or the test, never silently escapes the smoke test.
 */
export const BENCHMARK_NAMES = [
  'list',
  'upload',
  'transcode',
  'collect',
  'analytics',
  'routes',
  'search',
  'webhooks',
  'soak',
  'sign-in',
  'start',
  'dashboard',
] as const;

export type BenchmarkName = (typeof BENCHMARK_NAMES)[number];
