/**
 * The date window of a per-day read (get_video_analytics, get_analytics_daily): both ends optional,
 * defaulting to the 28 days that end today in the workspace time zone, at most 366 days, and a clear
 * 400 naming both fields when the window is backwards or too long.
 */

import { addDays, daySpan } from '../../../core/calendar/calendar-days.ts';
import { AppError, type FieldProblem } from '../../../core/errors.ts';

export const DEFAULT_WINDOW_DAYS = 28;
export const MAX_WINDOW_DAYS = 366;

export interface DateWindow {
  from: string;
  to: string;
  days: number;
}

/**
 * `to` defaults to today; `from` to 27 days before `to`. Dates are calendar days ('YYYY-MM-DD',
 * already format-checked by the input schema) in the workspace time zone.
 */
export function resolveDateWindow(
  input: { from?: string | undefined; to?: string | undefined },
  fields: { from: string; to: string },
  today: string,
): DateWindow {
  const to = input.to ?? today;
  const from = input.from ?? addDays(to, -(DEFAULT_WINDOW_DAYS - 1));
  const problems: FieldProblem[] = [];
  const toSaid = input.to === undefined ? `${fields.to} (today, ${today}, when not given)` : `${fields.to} (${to})`;
  if (from > to) {
    problems.push({ field: fields.from, problem: `must be on or before ${toSaid}` });
  } else if (daySpan(from, to) > MAX_WINDOW_DAYS) {
    problems.push({
      field: fields.from,
      problem: `must be at most ${MAX_WINDOW_DAYS} days before ${toSaid}, both days included; the window asked for is ${daySpan(from, to)} days`,
    });
  }
  if (problems.length > 0) throw AppError.invalid(problems);
  return { from, to, days: daySpan(from, to) };
}
