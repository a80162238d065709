/**
 * A local day's open hours: the weekly hours of its weekday, or its date override, turned into the
 * stretches of real time they cover (through a ZoneClock, so a DST day's hours are as long as the
 * wall clock makes them: 01:00–04:00 is two hours on a spring-forward night, four on a fall-back one).
 */
import { clockText, isoWeekdayOf, type ZoneClock } from './local-time.ts';
import type { DateOverride, HoursInterval, SchedulingRules } from './scheduling-rules.ts';

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of 'HH:MM' ('24:00' is 1440, allowed as an end only), or undefined when malformed. */
export function clockMinutes(text: string, isEnd: boolean): number | undefined {
  if (isEnd && text === '24:00') return 1440;
  const match = CLOCK.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** [start, end) minute pairs, sorted, with touching or overlapping intervals joined. */
export type MinuteIntervals = [number, number][];

/**
 * Intervals that touch are joined: 09:00–12:00 and 12:00–17:00 describe one open stretch, and a
 * meeting across noon fits in it (a break is a gap between intervals, not a split at one time).
 */
export function mergedMinutes(intervals: readonly HoursInterval[]): MinuteIntervals {
  const pairs: MinuteIntervals = [];
  for (const interval of intervals) {
    const start = clockMinutes(interval.start, false);
    const end = clockMinutes(interval.end, true);
    if (start !== undefined && end !== undefined && start < end) pairs.push([start, end]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: MinuteIntervals = [];
  for (const [start, end] of pairs) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

export function hoursText(intervals: MinuteIntervals): string {
  return intervals.map(([start, end]) => `${clockText(start * 60_000)}–${end === 1440 ? '24:00' : clockText(end * 60_000)}`).join(', ');
}

/** Which rule sets a local day's hours, and the hours themselves. */
export interface DayHours {
  day: string;
  override: DateOverride | undefined;
  intervals: MinuteIntervals;
}

export function overridesByDay(rules: SchedulingRules): Map<string, DateOverride> {
  return new Map(rules.dateOverrides.map((override) => [override.date, override]));
}

export function hoursOfDay(rules: SchedulingRules, overrides: Map<string, DateOverride>, day: string): DayHours {
  const override = overrides.get(day);
  const intervals = override ? override.hours : (rules.weeklyHours[isoWeekdayOf(day)] ?? []);
  return { day, override, intervals: mergedMinutes(intervals) };
}

/**
 * The day's hours as [from, to) instants, touching ranges joined. A fall-back night's repeated hour
 * sits inside one range when the hours cover it, and splits the range when they cover only one side
 * of the change (00:00–01:30 covers 01:00–01:30 twice, with the first 01:30–02:00 between them).
 */
export function openRanges(clock: ZoneClock, hours: DayHours): [number, number][] {
  const ranges = hours.intervals.flatMap(([start, end]) => clock.rangesOf(hours.day, start, end));
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of ranges) {
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}
