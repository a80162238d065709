/**
 * The window of the video page's daily charts, read from the query string: a preset (`range=7`, 30
 * or 90: the last so many days, today included, in the workspace's time zone) or dates chosen
 * (`from` and `to`). A GET form and links write it, so every window has its own address.
 */
// Today's date in a time zone, where "the last 7 days" end: the same day the scheduling pages use.
import { todayIn } from '../scheduling/local-days.ts';

export const RANGE_PRESETS = [7, 30, 90] as const;
export const DEFAULT_PRESET = 30;

export type ChosenRange =
  | { kind: 'preset'; days: number }
  | { kind: 'dates'; from: string; to: string }
  /** Dates that are not dates: the form comes back with the problem next to the field. */
  | { kind: 'invalid'; from: string; to: string; problems: { field: 'from' | 'to'; problem: string }[] };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  return (
    DAY.test(value) &&
    !Number.isNaN(new Date(`${value}T00:00:00Z`).getTime()) &&
    new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
  );
}

export function chosenRange(query: Record<string, string>): ChosenRange {
  const from = (query.from ?? '').trim();
  const to = (query.to ?? '').trim();
  if (from !== '' || to !== '') {
    const problems: { field: 'from' | 'to'; problem: string }[] = [];
    if (!isDay(from)) problems.push({ field: 'from', problem: 'Choose the first day.' });
    if (!isDay(to)) problems.push({ field: 'to', problem: 'Choose the last day.' });
    return problems.length > 0 ? { kind: 'invalid', from, to, problems } : { kind: 'dates', from, to };
  }
  const days = Number(query.range);
  return { kind: 'preset', days: (RANGE_PRESETS as readonly number[]).includes(days) ? days : DEFAULT_PRESET };
}

/** The day `days` before `day` (negative: after). */
export function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** What get_video_analytics is asked for this range (a preset needs today in the workspace's zone). */
export function analyticsWindow(range: ChosenRange, timeZone: string, now: Date): { from_date: string; to_date: string } | undefined {
  if (range.kind === 'dates') return { from_date: range.from, to_date: range.to };
  if (range.kind === 'invalid') return undefined;
  const today = todayIn(timeZone, now);
  return { from_date: daysBefore(today, range.days - 1), to_date: today };
}
