/**
 * Reads a feed's busy times in a child process of its own (ics-process.ts) under a deadline and a
 * memory ceiling: ical.js has repeat rules it expands forever and a 5 MiB feed is a large tree, and
 * neither may stall the worker's event loop, its other jobs, or take the service down. Past the
 * deadline the process is killed; one that dies of its memory ceiling is a plain feed error.
 */
import { fork } from 'node:child_process';
import { type FeedBusyTime, FeedReadError, type FeedWindow } from './ics-busy-times.ts';
import type { ReaderAnswer, ReaderRequest } from './ics-process.ts';

export const READ_DEADLINE_MS = 10_000;
const HEAP_MB = 256;

export interface ReadOptions {
  deadlineMs?: number;
  /** The reader's heap ceiling in MB (tests set a small one to reach it quickly). */
  heapMb?: number;
  /** The caller's cancellation (the worker stopping): ends the process, rejects with the signal's reason. */
  signal?: AbortSignal;
}

export function readBusyTimes(text: string, window: FeedWindow, options: ReadOptions = {}): Promise<FeedBusyTime[]> {
  const deadlineMs = options.deadlineMs ?? READ_DEADLINE_MS;
  const heapMb = options.heapMb ?? HEAP_MB;
  return new Promise((resolve, reject) => {
    // Only the heap ceiling: the parent's own flags (a test runner's, an inspector's) are not the reader's.
    const reader = fork(new URL('./ics-process.ts', import.meta.url), [], {
      execArgv: [`--max-old-space-size=${heapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (reader.exitCode === null && reader.signalCode === null) reader.kill('SIGKILL');
      outcome();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new FeedReadError(
              `The feed could not be read within ${deadlineMs / 1000} s: an event repeats in a way that never ends, or the feed is too complex.`,
            ),
          ),
        ),
      deadlineMs,
    );
    const onAbort = () => settle(() => reject(options.signal?.reason));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    reader.once('message', (answer: ReaderAnswer) =>
      settle(() =>
        answer.ok
          ? resolve(answer.busy.map(([start, end, summary]) => ({ start, end, summary })))
          : reject(new FeedReadError(answer.problem)),
      ),
    );
    reader.once('error', (error) => settle(() => reject(error)));
    // Dying before answering is what running out of the heap ceiling looks like (V8 aborts the process).
    reader.once('exit', () =>
      settle(() =>
        reject(new FeedReadError(`The feed needs more than ${heapMb} MB of memory to read, or its reader failed while reading it.`)),
      ),
    );
    reader.send({ text, window } satisfies ReaderRequest);
  });
}
