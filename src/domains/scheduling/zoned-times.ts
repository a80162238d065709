/**
 * Instants written as a person in a time zone reads them, ISO 8601 with the offset in force then:
 * `2027-03-15T09:00:00-04:00`. The offset makes the text an exact instant again (the two 01:30s of a
 * fall-back night differ), and a client shows the wall clock without a time zone library. Backed by
 * a ZoneClock, so a window's thousands of slots cost a few hundred Intl calls.
 */
import { offsetText, ZoneClock } from './local-time.ts';

const DAY_MS = 86_400_000;
/** Slots and their ends reach a day past the instants asked about at most (RULE_BOUNDS). */
const MARGIN_MS = 3 * DAY_MS;

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
