/**
 * Calendar days as the rollups store them ('YYYY-MM-DD', in the workspace time zone) and the little
 * arithmetic the analytics reads need: stepping days, spans, and where a local day starts in real
 * time (for the events outbox, whose rows carry instants rather than days).
 */
import { utcOffsetMs } from './time-zone.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function toUtc(day: string): number {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return Date.UTC(year, month - 1, date);
}

function fromUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day `n` days after (negative: before) `day`. */
export function addDays(day: string, n: number): string {
  return fromUtc(toUtc(day) + n * DAY_MS);
}

/** How many days from `from` to `to`, both included (1 for the same day). */
export function daySpan(from: string, to: string): number {
  return Math.round((toUtc(to) - toUtc(from)) / DAY_MS) + 1;
}

/** Every day from `from` to `to`, both included, in order. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let ms = toUtc(from), end = toUtc(to); ms <= end; ms += DAY_MS) days.push(fromUtc(ms));
  return days;
}

/** The instant a local day begins in the time zone (its midnight, or the first moment after a DST gap). */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const midnight = toUtc(day);
  // The offset at the guess may differ from the offset at the answer (DST); a second pass settles it.
  let instant = midnight - utcOffsetMs(midnight, timeZone);
  instant = midnight - utcOffsetMs(instant, timeZone);
  return new Date(instant);
}
