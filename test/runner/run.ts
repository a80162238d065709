/**
 * `npm run test:unit` (every test file) and `npm run test:fast` (all but the slow lanes, lanes.ts).
 *
 * Node's runner would start a process per file, and each process pays again for loading the service
 * and opening a database: about 1.5 s a file, for 150 files. Here a few long-lived workers (one per
 * core and one more, unless CUEPOINT_TEST_WORKERS says otherwise) each run a share of the files with the test
 * runner's isolation off: one process, one module load and one shared test database per worker (see
 * test/helpers/app.ts). Files are shared out longest first, from the durations of the last run.
 *
 * With --check (what `npm test` passes) the type check and the linter (`npm run check`) run beside the
 * workers at a lower priority, instead of before them: the workers leave a core idle now and then
 * (waiting on a server, ffmpeg, Chromium), and the check's half a minute of CPU fills those gaps. Its
 * verdict counts like a test's.
 *
 * Usage: node test/runner/run.ts [--fast] [--check] [file …]
 */
import { spawn } from 'node:child_process';
import { createWriteStream, globSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, setPriority, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { cacheTemplate } from '../../src/db/pglite-template.ts';
import { expectedDuration, loadDurations, saveDurations } from './durations.ts';
import { SLOW_LANES, slowLaneOf } from './lanes.ts';
import { planWorkers } from './plan.ts';
import { MESSAGE_PREFIX, type RunnerMessage } from './reporter.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const LOG_DIR = join(ROOT, 'node_modules', '.cache', 'cuepoint', 'test-logs');
// A guard against a hang, not a speed target: on 2026-11-30 this machine ran the suite 2.2 times
// slower than the day before (every file alike; `npm run test:fast` 62 s → 148 s), and a speech test
// that takes 18 s in a busy run went past the earlier 120 s.
const TEST_TIMEOUT_MS = 300_000;

const { values: options, positionals } = parseArgs({
  options: { fast: { type: 'boolean', default: false }, check: { type: 'boolean', default: false } },
  allowPositionals: true,
});
process.chdir(ROOT);

const allFiles = positionals.length > 0 ? positionals : globSync(['src/**/*.test.ts', 'test/**/*.test.ts']).sort();
const files = options.fast ? allFiles.filter((file) => slowLaneOf(file) === undefined) : allFiles;
// The slow lanes' files wait on other processes (a server starting, ffmpeg, Chromium playing in real
// time, a fsync) while those processes use the cores: the full run has twice as many workers as cores
// and one more, which keeps both cores busy to the end (2 cores, the same commit back to back:
// 3 workers 568 s, 5 workers 481 s, load 2.8 at the start; vmstat over a 5-worker run: 2% idle). The
// fast lane hardly waits, so one more worker than cores is enough there. Each worker holds up to about
// 1.5 GB, so memory caps the count too.
const workersWanted = options.fast ? availableParallelism() + 1 : availableParallelism() * 2 + 1;
const workerCount = Number(process.env.CUEPOINT_TEST_WORKERS) || Math.max(1, Math.min(workersWanted, Math.floor(totalmem() / 2 ** 31)));
const durations = loadDurations();
const plans = planWorkers(files, workerCount, (file) => expectedDuration(file, durations));

if (files.length === 0) {
  console.log('No test file to run.');
  process.exit(1);
}

const lanesLeftOut = options.fast ? ` (fast lane: without the ${Object.keys(SLOW_LANES).join(', ')} suites)` : '';
console.log(`${files.length} test files in ${plans.length} workers${lanesLeftOut}`);

// Made once here, so the workers load the migrated database template instead of each making it.
await cacheTemplate();
mkdirSync(LOG_DIR, { recursive: true });

const started = performance.now();
const failures: Extract<RunnerMessage, { kind: 'failure' }>[] = [];
const measured: Record<string, number> = {};
const reported = new Set<string>();
let passed = 0;
let failed = 0;

function runWorker(index: number, workerFiles: string[]): Promise<{ code: number | null; log: string }> {
  const log = join(LOG_DIR, `worker-${index + 1}.log`);
  const output = createWriteStream(log);
  const child = spawn(
    process.execPath,
    ['--import', './test/helpers/compile-cache.ts', './test/runner/worker.ts', String(TEST_TIMEOUT_MS), ...workerFiles],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr.pipe(output, { end: false });
  createInterface({ input: child.stdout }).on('line', (text) => {
    if (!text.startsWith(MESSAGE_PREFIX)) {
      output.write(`${text}\n`);
      return;
    }
    const message = JSON.parse(text.slice(MESSAGE_PREFIX.length)) as RunnerMessage;
    if (message.kind === 'failure') {
      failures.push(message);
      console.log(`✖ ${message.file} › ${message.test}\n${indent(message.error)}`);
      return;
    }
    reported.add(message.file);
    measured[message.file] = message.ms;
    passed += message.passed;
    failed += message.failed;
    const mark = message.failed > 0 ? '✖' : '✔';
    const counts = message.failed > 0 ? `${message.failed} of ${message.passed + message.failed} failed` : `${message.passed} passed`;
    console.log(`${mark} ${message.file} — ${counts}, ${seconds(message.ms)}`);
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      output.end();
      resolve({ code, log });
    });
  });
}

/** `npm run check` in the background, at a lower priority than the workers; resolves with its verdict. */
function runCheck(): Promise<{ ok: boolean; output: string }> {
  const child = spawn('npm', ['run', '--silent', 'check'], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) setPriority(child.pid, 10);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const ok = code === 0;
      console.log(ok ? `✔ npm run check — types and lint, ${seconds(performance.now() - started)}` : '✖ npm run check failed');
      resolve({ ok, output });
    });
  });
}

const check = options.check ? runCheck() : Promise.resolve({ ok: true, output: '' });
const outcomes = await Promise.all(plans.map((workerFiles, index) => runWorker(index, workerFiles)));
saveDurations(durations, measured);
const checked = await check;

const missing = files.filter((file) => !reported.has(file));
const brokenWorkers = outcomes.filter((outcome) => outcome.code !== 0 && failures.length === 0);
console.log(`\n${passed} passed, ${failed} failed, ${files.length} files in ${seconds(performance.now() - started)}`);
if (failures.length > 0) {
  console.log(`\nFailures:\n${failures.map((failure) => `  ✖ ${failure.file} › ${failure.test}`).join('\n')}`);
}
if (missing.length > 0) {
  // A file that ran no test: it failed to load, or its worker died before reaching it.
  console.log(`\nFiles that reported no test:\n${missing.map((file) => `  ${file}`).join('\n')}`);
}
for (const outcome of brokenWorkers) {
  console.log(`\nA worker exited with code ${outcome.code}; the end of its log (${outcome.log}):\n${tail(outcome.log)}`);
}
if (!checked.ok) console.log(`\nnpm run check failed (types or lint):\n${indent(checked.output.trim())}`);
process.exitCode = !checked.ok || failures.length > 0 || missing.length > 0 || outcomes.some((outcome) => outcome.code !== 0) ? 1 : 0;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function indent(text: string): string {
  return text.replace(/^/gm, '    ');
}

function tail(path: string): string {
  return indent(readFileSync(path, 'utf8').split('\n').slice(-40).join('\n'));
}
