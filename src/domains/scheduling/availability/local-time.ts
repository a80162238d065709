/**
 * Wall clock ↔ instant in an IANA zone, correct across daylight-saving changes, from Intl alone.
 *
 * A ZoneClock reads, through Intl, the zone's UTC offsets over a span of real time and where they
 * change (found by bisection to the second), so every conversion after that is arithmetic on those
 * offsets: nothing is typed in by hand, and a 31-day window costs a few hundred Intl calls, not one
 * per candidate. Reading a local time gives every instant the wall clock shows it:
 * - none in a spring-forward gap (02:30 on 2026-03-08 in New York never happens);
 * - two in a fall-back overlap (01:30 on 2026-11-01 in New York happens at 05:30Z and 06:30Z);
 * - one otherwise.
 */
import { utcOffsetMs } from '../../../core/calendar/time-zone.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Offsets are sampled this often; no zone changes its offset twice within six hours. */
const SAMPLE_MS = 6 * 3_600_000;

/** 'YYYY-MM-DD' → the instant that is its midnight in UTC: the "wall" scale local times are measured on. */
export function dayStartOnWallScale(day: string): number {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return Date.UTC(year, month - 1, date);
}

// A window's thousands of conversions touch a few dozen days: the day's text is made once per day.
const dayTexts = new Map<number, string>();

function dayOfWallScale(wall: number): string {
  const dayNumber = Math.floor(wall / DAY_MS);
  let text = dayTexts.get(dayNumber);
  if (text === undefined) {
    text = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
    if (dayTexts.size > 10_000) dayTexts.clear();
    dayTexts.set(dayNumber, text);
  }
  return text;
}

/** A stretch of real time [from, to) over which the zone keeps one offset. */
interface OffsetSpan {
  from: number;
  to: number;
  offsetMs: number;
}

/** What the wall clock shows at an instant. */
export interface WallClock {
  /** The local date, 'YYYY-MM-DD'. */
  day: string;
  /** Milliseconds since that day's local midnight as the clock reads it (09:30 is 34,200,000). */
  msOfDay: number;
  offsetMs: number;
}

export class ZoneClock {
  readonly timeZone: string;
  private readonly spans: OffsetSpan[];

  /** Reads the zone's offsets from `from` to `to` (instants); outside them the first and last offsets are assumed to hold. */
  constructor(timeZone: string, from: number, to: number) {
    this.timeZone = timeZone;
    this.spans = [];
    let at = from;
    let offset = utcOffsetMs(at, timeZone);
    let spanStart = Number.NEGATIVE_INFINITY;
    while (at < to) {
      const next = Math.min(at + SAMPLE_MS, to);
      const nextOffset = utcOffsetMs(next, timeZone);
      if (nextOffset !== offset) {
        const change = this.firstInstantWithNewOffset(at, next, offset);
        this.spans.push({ from: spanStart, to: change, offsetMs: offset });
        spanStart = change;
        offset = nextOffset;
      }
      at = next;
    }
    this.spans.push({ from: spanStart, to: Number.POSITIVE_INFINITY, offsetMs: offset });
  }

  /** Bisection to the second: offsets change on whole seconds (whole minutes in any modern rule). */
  private firstInstantWithNewOffset(before: number, after: number, oldOffset: number): number {
    let low = Math.floor(before / 1000);
    let high = Math.ceil(after / 1000);
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (utcOffsetMs(middle * 1000, this.timeZone) === oldOffset) low = middle;
      else high = middle;
    }
    return high * 1000;
  }

  offsetAt(at: number): number {
    for (const span of this.spans) if (at < span.to) return span.offsetMs;
    return this.spans[this.spans.length - 1]!.offsetMs;
  }

  wallClockAt(at: number): WallClock {
    const offsetMs = this.offsetAt(at);
    const wall = at + offsetMs;
    const msOfDay = ((wall % DAY_MS) + DAY_MS) % DAY_MS;
    return { day: dayOfWallScale(wall), msOfDay, offsetMs };
  }

  /** Every instant at which the wall clock reads `minuteOfDay` on `day`, earliest first (0, 1 or 2 of them). */
  instantsOf(day: string, minuteOfDay: number): number[] {
    const wall = dayStartOnWallScale(day) + minuteOfDay * MINUTE_MS;
    const instants: number[] = [];
    for (const span of this.spans) {
      const at = wall - span.offsetMs;
      if (at >= span.from && at < span.to) instants.push(at);
    }
    return instants.sort((a, b) => a - b);
  }

  /**
   * The instants [from, to) whose wall clock reads a time in [startMinute, endMinute) on `day`: one
   * range per offset the day sees, clipped to where that offset holds. A gap leaves a hole; an
   * overlap yields the repeated stretch twice (the caller merges touching ranges).
   */
  rangesOf(day: string, startMinute: number, endMinute: number): [number, number][] {
    const dayWall = dayStartOnWallScale(day);
    const ranges: [number, number][] = [];
    for (const span of this.spans) {
      const from = Math.max(dayWall + startMinute * MINUTE_MS - span.offsetMs, span.from);
      const to = Math.min(dayWall + endMinute * MINUTE_MS - span.offsetMs, span.to);
      if (from < to) ranges.push([from, to]);
    }
    return ranges;
  }

  /** "2026-11-01 01:30 (UTC-05:00)": the offset makes the two 01:30s of a fall-back night tell apart. */
  label(at: number): string {
    const clock = this.wallClockAt(at);
    return `${clock.day} ${clockText(clock.msOfDay)} (UTC${offsetText(clock.offsetMs)})`;
  }
}

/** 'HH:MM' of a time of day in milliseconds (seconds are dropped). */
export function clockText(msOfDay: number): string {
  const minutes = Math.floor(msOfDay / MINUTE_MS);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** '+05:30', '-04:00'. */
export function offsetText(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / MINUTE_MS);
  const sign = offsetMs < 0 ? '-' : '+';
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The ISO weekday (1 Monday … 7 Sunday) of a 'YYYY-MM-DD' date. */
export function isoWeekdayOf(day: string): 1 | 2 | 3 | 4 | 5 | 6 | 7 {
  const sundayFirst = new Date(dayStartOnWallScale(day)).getUTCDay();
  return (sundayFirst === 0 ? 7 : sundayFirst) as 1 | 2 | 3 | 4 | 5 | 6 | 7;
}
