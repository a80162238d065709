/**
 * Benchmarks cannot rot (issue 25): every `npm run bench` target runs in its smoke mode
 * (bench/smoke.ts: tiny data, about a second of load, the same code and the same answer checks as a
 * real run), as the command someone would type, and must exit 0 having written its report. A
 * benchmark that no longer starts (a setting the config now refuses, a moved module, a seed that no
 * longer fits the schema, an answer that no longer checks out) fails here, not months later when
 * someone needs its figures. No figure is ever asserted: a smoke run's timings mean nothing.
 *
 * Databases, in both modes of the suite:
 * - list, analytics, routes, search and webhooks measure PostgreSQL itself (its CPU per request, its
 *   plans, its backends), so they always get one: TEST_DATABASE_URL's server, or in the PGlite-only
 *   run a PostgreSQL of the test's own (private-services.ts, as the fault tests start; PostgreSQL
 *   15's server binaries). Each makes and drops a throwaway database there.
 * - collect, upload, transcode and soak run their service on the mode's own database: a throwaway
 *   database on TEST_DATABASE_URL's server, or the embedded one. Between the two runs of the suite,
 *   both of each one's paths are covered.
 * - start times `npm start` itself, always on the embedded database (a user's first start).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'node:test';
import { BENCHMARK_NAMES } from '../bench/benchmark-names.ts';
import { runBench } from './helpers/bench-command.ts';
import { testDatabaseUrl } from './helpers/database.ts';
import { startPrivatePostgres } from './helpers/private-services.ts';
import { tempDir } from './helpers/server-process.ts';

interface SmokeCase {
  name: string;
  args: string[];
  env: Record<string, string>;
  /** The report's file name, after the date. */
  report: RegExp;
}

test('every benchmark starts, runs end to end and passes its own checks in its smoke mode', {
  // Each benchmark is bounded by its own subtest's timeout; this only bounds the whole.
  timeout: 900_000,
  // Two at a time: most of a smoke run is waiting (a service starting, a database being made).
  concurrency: 2,
}, async (t) => {
  const postgresUrl = testDatabaseUrl ?? (await startPrivatePostgres(t)).url;
  const postgres = { BENCH_DATABASE_URL: postgresUrl };
  const modeDatabase: Record<string, string> = testDatabaseUrl ? { BENCH_DATABASE_URL: testDatabaseUrl } : {};
  const cases: SmokeCase[] = [
    // The longest first, so the two lanes end together.
    { name: 'transcode', args: ['transcode'], env: modeDatabase, report: /-transcode\.json$/ },
    { name: 'search', args: ['search'], env: postgres, report: /-search\.json$/ },
    {
      name: 'collect',
      args: ['collect'],
      env: testDatabaseUrl ? modeDatabase : { BENCH_COLLECT_DATABASE: 'embedded' },
      report: testDatabaseUrl ? /-collect\.json$/ : /-collect-embedded\.json$/,
    },
    { name: 'analytics', args: ['analytics'], env: postgres, report: /-analytics\.json$/ },
    { name: 'routes', args: ['routes'], env: postgres, report: /-routes\.json$/ },
    { name: 'upload', args: ['upload'], env: modeDatabase, report: /-upload\.json$/ },
    { name: 'upload --store s3', args: ['upload', '--store', 's3'], env: modeDatabase, report: /-upload-s3\.json$/ },
    { name: 'list', args: ['list'], env: postgres, report: /^\d{4}-\d{2}-\d{2}\.json$/ },
    { name: 'webhooks', args: ['webhooks'], env: postgres, report: /-webhooks\.json$/ },
    { name: 'start', args: ['start'], env: {}, report: /-start\.json$/ },
    { name: 'soak', args: ['soak'], env: modeDatabase, report: testDatabaseUrl ? /-soak-postgresql\.json$/ : /-soak\.json$/ },
    { name: 'sign-in', args: ['sign-in'], env: {}, report: /-sign-in\.json$/ },
    { name: 'dashboard', args: ['dashboard'], env: {}, report: /-dashboard\.json$/ },
  ];
  assert.deepEqual(
    new Set(cases.map((smoke) => smoke.args[0])),
    new Set(BENCHMARK_NAMES),
    'every benchmark npm run bench knows has its smoke case',
  );
  await Promise.all(
    cases.map((smoke) =>
      t.test(smoke.name, { timeout: 360_000 }, async (t) => {
        const results = tempDir(t, 'cuepoint-bench-smoke-');
        const run = await runBench(t, [...smoke.args, '--smoke'], { ...smoke.env, BENCH_RESULTS_DIR: results });
        const output = `${run.stderr}${run.stdout}`;
        assert.equal(run.code, 0, `npm run bench -- ${smoke.args.join(' ')} --smoke exited ${run.code ?? run.signal}:\n${output}`);
        const written = readdirSync(results);
        assert.equal(written.length, 1, `one report, in the folder it was given: ${written.join(', ')}\n${output}`);
        const file = written[0] as string;
        assert.match(file, smoke.report);
        const report = JSON.parse(readFileSync(join(results, file), 'utf8')) as { machine?: { cpus?: number } };
        assert.ok(report.machine?.cpus, 'the report says what machine it came from');
      }),
    ),
  );
});
