/**
 * The worker's reporter (`node --test --test-reporter=./test/runner/reporter.ts`): one line per thing
 * the runner (run.ts) shows — a file's end with its counts and time, and every failure with its error
 * as the spec reporter would print it. The lines go to stdout, where the tests' own output goes too
 * (isolation is off), so each starts with MESSAGE_PREFIX and holds one JSON object.
 */
import { relative } from 'node:path';
import type { TestEvent } from 'node:test/reporters';
import { inspect } from 'node:util';

export type RunnerMessage =
  | { kind: 'file'; file: string; passed: number; failed: number; ms: number }
  | { kind: 'failure'; file: string; test: string; error: string };

interface FileTally {
  file: string;
  /**
   * The sum of its top-level tests' durations, as the test runner measured them. Not the time between
   * the events here: this reporter shares the event loop with the tests, so while a test keeps it
   * busy (PGlite answers in microtasks) the events wait, and one file's time showed up as another's.
   */
  ms: number;
  passed: number;
  failed: number;
}

export const MESSAGE_PREFIX = '\u001e@cuepoint-test-runner ';

function line(message: RunnerMessage): string {
  return `${MESSAGE_PREFIX}${JSON.stringify(message)}\n`;
}

function fileOf(path: string | undefined): string {
  return path ? relative(process.cwd(), path) : '(no file)';
}

function describeError(error: unknown): string {
  // The runner wraps what a test threw in an ERR_TEST_FAILURE whose cause is the real error.
  const cause = error instanceof Error && 'cause' in error && error.cause !== undefined ? error.cause : error;
  return inspect(cause, { depth: 6, colors: false });
}

export default async function* runnerReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  let current: FileTally | undefined;
  const names: string[] = [];
  const finishFile = () => {
    if (!current) return undefined;
    const { file, passed, failed, ms } = current;
    current = undefined;
    return line({ kind: 'file', file, passed, failed, ms: Math.round(ms) });
  };
  for await (const event of source) {
    if (event.type === 'test:dequeue') {
      const file = fileOf(event.data.file);
      // Top-level tests run one at a time, file after file: a test of another file about to run
      // means the last file ended. (test:start comes later, when a test's report begins.)
      if (event.data.nesting === 0 && current?.file !== file) {
        const ended = finishFile();
        if (ended) yield ended;
        current = { file, ms: 0, passed: 0, failed: 0 };
      }
    } else if (event.type === 'test:start') {
      names[event.data.nesting] = event.data.name;
    } else if (event.type === 'test:pass') {
      if (current && event.data.details.type !== 'suite') current.passed++;
      if (current && event.data.nesting === 0) current.ms += event.data.details.duration_ms;
    } else if (event.type === 'test:fail' && !event.data.todo) {
      if (current && event.data.nesting === 0) current.ms += event.data.details.duration_ms;
      const error = event.data.details.error as Error & { failureType?: string };
      // A parent failing because a subtest failed says nothing the subtest's own failure did not.
      if (error.failureType === 'subtestsFailed') continue;
      if (current) current.failed++;
      const test = [...names.slice(0, event.data.nesting), event.data.name].join(' › ');
      yield line({ kind: 'failure', file: fileOf(event.data.file), test, error: describeError(error) });
    }
  }
  const ended = finishFile();
  if (ended) yield ended;
}
