/**
 * An instant written as the wall clock of a zone shows it, with the offset that makes it exact:
 * '2026-12-01T10:00:00+01:00'. ISO 8601 and RFC 3339 both read it back to the same instant, so an
 * answer can say "10:00 your time" without losing which instant it means. `zonedIso` writes one
 * instant; `ZonedTimes` writes the thousands of a window from a ZoneClock (a few hundred Intl calls
 * for the whole window instead of one per instant), with the same text.
 */
import { utcOffsetMs } from '../../../core/calendar/time-zone.ts';
import { offsetText, ZoneClock } from './local-time.ts';

export function zonedIso(at: Date, timeZone: string): string {
  const offset = utcOffsetMs(at.getTime(), timeZone);
  const wall = new Date(Math.floor(at.getTime() / 1000) * 1000 + offset).toISOString().slice(0, 19);
  return `${wall}${offsetText(offset)}`;
}

const DAY_MS = 86_400_000;
/** Slots and their ends reach a day past the instants asked about at most (RULE_BOUNDS). */
const MARGIN_MS = 3 * DAY_MS;

/** Many instants in one zone over a span (and 3 days either side). */
export class ZonedTimes {
  readonly timeZone: string;
  /** The zone's wall clock over the span (and 3 days either side). */
  readonly clock: ZoneClock;

  constructor(timeZone: string, from: Date, to: Date) {
    this.timeZone = timeZone;
    this.clock = new ZoneClock(timeZone, from.getTime() - MARGIN_MS, to.getTime() + MARGIN_MS);
  }

  iso(at: Date): string {
    const wall = this.clock.wallClockAt(at.getTime());
    const seconds = Math.floor(wall.msOfDay / 1000);
    const two = (n: number) => String(n).padStart(2, '0');
    const time = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
    return `${wall.day}T${time}${offsetText(wall.offsetMs)}`;
  }
}
