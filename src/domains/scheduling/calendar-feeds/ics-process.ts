/**
 * The process ics-reader.ts runs busyTimesOf in, so a feed that makes ical.js spin or swell costs a
 * child process that is ended, never the service. (A worker thread was not enough: a thread that
 * runs out of its heap limit can take the whole process down with it, and a feed whose rule repeats
 * forever did exactly that.) Reads one request from its parent, answers once, and exits.
 */
import { busyTimesOf, FeedReadError, type FeedWindow } from './ics-busy-times.ts';

export type ReaderRequest = { text: string; window: FeedWindow };
export type ReaderAnswer = { ok: true; busy: [number, number, string | null][] } | { ok: false; problem: string };

function answerFor({ text, window }: ReaderRequest): ReaderAnswer {
  try {
    return { ok: true, busy: busyTimesOf(text, window).map((busy) => [busy.start, busy.end, busy.summary]) };
  } catch (error) {
    const problem =
      error instanceof FeedReadError
        ? error.message
        : `The feed could not be read as iCalendar: ${error instanceof Error ? error.message.slice(0, 160) : 'unknown error'}.`;
    return { ok: false, problem };
  }
}

process.once('message', (request: ReaderRequest) => {
  process.send?.(answerFor(request), () => process.exit(0));
});
