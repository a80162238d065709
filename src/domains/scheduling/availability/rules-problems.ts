/**
 * What is wrong with scheduling rules, beyond what a JSON schema can say: "HH:MM" that are no time,
 * an interval that ends before it starts, overlapping intervals, a date that does not exist, a date
 * overridden twice, an unknown zone. Field names are the snake_case JSON names (`weekly_hours.1[0].end`);
 * an operation passes its own prefix.
 */
import { isTimeZone } from '../../../core/calendar/time-zone.ts';
import type { FieldProblem } from '../../../core/errors.ts';
import { isRealDate } from '../../../core/values/real-instants.ts';
import { type HoursInterval, ISO_WEEKDAYS, RULE_BOUNDS, type SchedulingRules } from './scheduling-rules.ts';
import { clockMinutes } from './weekly-hours.ts';

function numberProblem(value: number | null, bounds: { min: number; max: number }, nullable: boolean): string | undefined {
  if (value === null) return nullable ? undefined : 'is required';
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    return `must be a whole number from ${bounds.min} to ${bounds.max}${nullable ? ', or null for no limit' : ''}`;
  }
  return undefined;
}

function intervalsProblems(intervals: readonly HoursInterval[], field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (intervals.length > RULE_BOUNDS.intervalsPerDay.max) {
    return [{ field, problem: `has ${intervals.length} intervals; a day takes at most ${RULE_BOUNDS.intervalsPerDay.max}` }];
  }
  const usable: [number, number, number][] = [];
  intervals.forEach((interval, index) => {
    const start = clockMinutes(interval.start, false);
    const end = clockMinutes(interval.end, true);
    if (start === undefined) problems.push({ field: `${field}[${index}].start`, problem: 'must be a time "HH:MM" from 00:00 to 23:59' });
    if (end === undefined) problems.push({ field: `${field}[${index}].end`, problem: 'must be a time "HH:MM" from 00:01 to 24:00' });
    if (start === undefined || end === undefined) return;
    if (end <= start)
      problems.push({ field: `${field}[${index}]`, problem: `ends (${interval.end}) before it starts (${interval.start})` });
    else usable.push([start, end, index]);
  });
  // Touching intervals are fine (they join); overlapping ones are almost surely a typing mistake.
  usable.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < usable.length; i++) {
    const [start, , index] = usable[i]!;
    const [, previousEnd, previousIndex] = usable[i - 1]!;
    if (start < previousEnd) problems.push({ field: `${field}[${index}]`, problem: `overlaps ${field}[${previousIndex}]` });
  }
  return problems;
}

export function schedulingRulesProblems(rules: SchedulingRules, prefix = ''): FieldProblem[] {
  const at = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const problems: FieldProblem[] = [];
  const numbers: [string, number | null, { min: number; max: number }, boolean][] = [
    ['duration_minutes', rules.durationMinutes, RULE_BOUNDS.durationMinutes, false],
    ['slot_interval_minutes', rules.slotIntervalMinutes, RULE_BOUNDS.slotIntervalMinutes, false],
    ['buffer_before_minutes', rules.bufferBeforeMinutes, RULE_BOUNDS.bufferMinutes, false],
    ['buffer_after_minutes', rules.bufferAfterMinutes, RULE_BOUNDS.bufferMinutes, false],
    ['minimum_notice_minutes', rules.minimumNoticeMinutes, RULE_BOUNDS.minimumNoticeMinutes, false],
    ['horizon_days', rules.horizonDays, RULE_BOUNDS.horizonDays, true],
    ['daily_cap', rules.dailyCap, RULE_BOUNDS.dailyCap, true],
  ];
  for (const [name, value, bounds, nullable] of numbers) {
    const problem = numberProblem(value, bounds, nullable);
    if (problem) problems.push({ field: at(name), problem });
  }
  if (!isTimeZone(rules.timeZone)) problems.push({ field: at('time_zone'), problem: 'must be an IANA time zone such as Europe/Berlin' });

  for (const key of Object.keys(rules.weeklyHours)) {
    const weekday = Number(key);
    const intervals = rules.weeklyHours[weekday as 1];
    if (!ISO_WEEKDAYS.includes(weekday as 1))
      problems.push({ field: at(`weekly_hours.${key}`), problem: 'must be a weekday from 1 (Monday) to 7 (Sunday)' });
    else if (intervals) problems.push(...intervalsProblems(intervals, at(`weekly_hours.${key}`)));
  }

  if (rules.dateOverrides.length > RULE_BOUNDS.dateOverrides.max) {
    problems.push({
      field: at('date_overrides'),
      problem: `has ${rules.dateOverrides.length} days; at most ${RULE_BOUNDS.dateOverrides.max}`,
    });
    return problems;
  }
  const seen = new Map<string, number>();
  rules.dateOverrides.forEach((override, index) => {
    const field = at(`date_overrides[${index}]`);
    if (!isRealDate(override.date)) problems.push({ field: `${field}.date`, problem: 'must be a real date "YYYY-MM-DD"' });
    const earlier = seen.get(override.date);
    if (earlier !== undefined)
      problems.push({
        field: `${field}.date`,
        problem: `repeats ${override.date}, already overridden at ${at(`date_overrides[${earlier}]`)}`,
      });
    else seen.set(override.date, index);
    problems.push(...intervalsProblems(override.hours, `${field}.hours`));
  });
  return problems;
}
