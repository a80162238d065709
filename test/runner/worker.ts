/**
 * One worker of the runner (run.ts): runs the files it is given, in the order given, in this process
 * (the test runner's isolation off), and reports through reporter.ts on stdout.
 *
 * Usage: node --import ./test/helpers/compile-cache.ts test/runner/worker.ts TIMEOUT_MS FILE …
 */
import { pipeline } from 'node:stream/promises';
import { run } from 'node:test';
import runnerReporter from './reporter.ts';

const [timeout, ...files] = process.argv.slice(2);
// forceExit: a file that leaves a handle open (a server, a timer) must not keep the worker alive.
await pipeline(run({ files, isolation: 'none', timeout: Number(timeout), forceExit: true }), runnerReporter, process.stdout);
