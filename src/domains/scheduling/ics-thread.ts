/**
 * The thread ics-reader.ts runs busyTimesOf in, so a feed that makes ical.js spin or swell costs a
 * thread that is ended, never the process. Answers once: the busy times, or why there are none.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { busyTimesOf, FeedReadError, type FeedWindow } from './ics-busy-times.ts';

export type ThreadAnswer = { ok: true; busy: [number, number, string | null][] } | { ok: false; problem: string };

const { text, window } = workerData as { text: string; window: FeedWindow };
let answer: ThreadAnswer;
try {
  answer = { ok: true, busy: busyTimesOf(text, window).map((busy) => [busy.start, busy.end, busy.summary]) };
} catch (error) {
  const problem =
    error instanceof FeedReadError
      ? error.message
      : `The feed could not be read as iCalendar: ${error instanceof Error ? error.message.slice(0, 160) : 'unknown error'}.`;
  answer = { ok: false, problem };
}
parentPort?.postMessage(answer);
