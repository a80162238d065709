/**
 * Where a run of local days begins and ends, for reads that sort instants into days
 * (leads-and-revenue.queries.ts). startOfLocalDay asks Intl for the zone's offset, about 40 µs a
 * day: over a 366-day window that is most of a read's time. Offsets change only at daylight-saving
 * and other transitions, months apart, so the run is cut into stretches of at most a week whose
 * ends are computed exactly; a stretch whose ends are whole days apart has no transition inside,
 * and its days follow every 24 hours. Only a stretch with a transition is computed day by day. The
 * exact ends are remembered (a day begins where it begins; dashboards ask for the same days again),
 * up to a bound.
 *
 * A day may end after the last instant there is: 9999-12-31, a date any input may name, ends in year
 * 10000 in UTC and every zone west of it, and such an instant cannot even be sent to the database
 * (get_video_analytics?to_date=9999-12-31 answered 500 in those zones). Every boundary is therefore
 * held to LAST_INSTANT (real-instants.ts), the bound of every instant an input can name, so the last
 * day there is still reads as a day. Only something at that very millisecond could fall outside it,
 * and nothing is there: leads are stamped with the clock, and record_outcome takes an occurred_at at
 * most 5 minutes ahead of it.
 */
import { addDays, daySpan, startOfLocalDay } from '../../../core/calendar/calendar-days.ts';
import { LAST_INSTANT } from '../../../core/values/real-instants.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Remembered day starts, by zone and day; about 100 bytes each, so a few MB at most. */
const MAX_REMEMBERED = 50_000;
const remembered = new Map<string, number>();

/** Where a local day begins, as startOfLocalDay says, remembered; never after LAST_INSTANT. */
export function localDayStart(day: string, timeZone: string): Date {
  return new Date(dayStart(day, timeZone));
}

function dayStart(day: string, timeZone: string): number {
  const key = `${timeZone} ${day}`;
  let start = remembered.get(key);
  if (start === undefined) {
    start = Math.min(startOfLocalDay(day, timeZone).getTime(), LAST_INSTANT);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(key, start);
  }
  return start;
}
/** A stretch this short cannot hold a transition and its reversal (tzdata has none so close). */
const STRETCH_DAYS = 7;

/** The instants where each day from `from` to `to` begins, then where `to` ends: days + 1 of them. */
export function localDayBoundaries(from: string, to: string, timeZone: string): Date[] {
  const count = daySpan(from, to) + 1;
  const starts: number[] = new Array(count);
  const exact = (i: number) => {
    starts[i] ??= dayStart(addDays(from, i), timeZone);
    return starts[i] as number;
  };
  for (let first = 0; first < count - 1; first += STRETCH_DAYS) {
    const last = Math.min(first + STRETCH_DAYS, count - 1);
    const steady = exact(last) - exact(first) === (last - first) * DAY_MS;
    for (let i = first + 1; i < last; i++) starts[i] = steady ? exact(first) + (i - first) * DAY_MS : exact(i);
  }
  return starts.map((ms) => new Date(ms));
}
