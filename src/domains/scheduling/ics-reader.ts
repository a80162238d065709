/**
 * Reads a feed's busy times in a thread of its own (ics-thread.ts) under a deadline and a memory
 * ceiling: ical.js has repeat rules it expands forever and a 5 MiB feed is a large tree, and neither
 * may stall the worker's event loop or its other jobs. Past the deadline the thread is ended.
 */
import { Worker } from 'node:worker_threads';
import { type FeedBusyTime, FeedReadError, type FeedWindow } from './ics-busy-times.ts';
import type { ThreadAnswer } from './ics-thread.ts';

export const READ_DEADLINE_MS = 10_000;
const HEAP_MB = 256;

export interface ReadOptions {
  deadlineMs?: number;
  /** The caller's cancellation (the worker stopping): ends the thread, rejects with the signal's reason. */
  signal?: AbortSignal;
}

export function readBusyTimes(text: string, window: FeedWindow, options: ReadOptions = {}): Promise<FeedBusyTime[]> {
  const deadlineMs = options.deadlineMs ?? READ_DEADLINE_MS;
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL('./ics-thread.ts', import.meta.url), {
      workerData: { text, window },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void thread.terminate();
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
    thread.once('message', (answer: ThreadAnswer) =>
      settle(() =>
        answer.ok
          ? resolve(answer.busy.map(([start, end, summary]) => ({ start, end, summary })))
          : reject(new FeedReadError(answer.problem)),
      ),
    );
    thread.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new FeedReadError(`The feed needs more than ${HEAP_MB} MB of memory to read.`)
            : error,
        ),
      ),
    );
    thread.once('exit', () => settle(() => reject(new Error('The feed reader stopped without answering.'))));
  });
}
