/**
 * Between an event type's API form and its row: weekly hours keyed by weekday name (`monday`) in the
 * API and by ISO number ("1") in the table, as the slot engine reads them; the rules a create or a
 * patch would give the row, read from the input as sent (so the pipeline can list their problems
 * with the schema's, Operation.databaseProblems); and the `EventType` answer of a row.
 */
import type { Static } from 'typebox';
import { canonicalTimeZone } from '../../../core/calendar/time-zone.ts';
import type { FieldProblem } from '../../../core/errors.ts';
import type { EventTypeRow } from '../../../db/tables/index.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import { rulesOf } from '../availability/event-type-rules.ts';
import { schedulingRulesProblems } from '../availability/rules-problems.ts';
import type { DateOverride, HoursInterval, IsoWeekday, SchedulingRules, WeeklyHours } from '../availability/scheduling-rules.ts';
import { type EventType, WEEKDAY_KEYS, type WeekdayKey } from './event-types.schemas.ts';

/** monday → 1 … sunday → 7. */
const ISO_OF = new Map<string, IsoWeekday>(WEEKDAY_KEYS.map((key, index) => [key, (index + 1) as IsoWeekday]));

type Fields = Record<string, unknown>;
const objectOf = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;

/**
 * Intervals as sent, made safe to examine: an item that is no object is left out (the schema names
 * it), a time that is no string reads as '' (the rules name it, or the schema did).
 */
function intervalsOf(value: unknown): HoursInterval[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const interval = objectOf(item);
    if (!interval) return [];
    const text = (time: unknown) => (typeof time === 'string' ? time : '');
    return [{ start: text(interval.start), end: text(interval.end) }];
  });
}

/** `{monday: [...]}` → `{1: [...]}`; names that are no weekday are left out (the schema names them). */
export function storedWeeklyHours(value: unknown): WeeklyHours {
  const hours: Partial<Record<IsoWeekday, HoursInterval[]>> = {};
  for (const [key, intervals] of Object.entries(objectOf(value) ?? {})) {
    const weekday = ISO_OF.get(key);
    if (weekday !== undefined) hours[weekday] = intervalsOf(intervals);
  }
  return hours;
}

export function storedDateOverrides(value: unknown): DateOverride[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const override = objectOf(item);
    return override && typeof override.date === 'string' ? [{ date: override.date, hours: intervalsOf(override.hours) }] : [];
  });
}

/** Every weekday, monday first, closed ones as []. */
export function shownWeeklyHours(hours: WeeklyHours): Record<WeekdayKey, HoursInterval[]> {
  return Object.fromEntries(
    WEEKDAY_KEYS.map((key) => [key, (hours[ISO_OF.get(key) as IsoWeekday] ?? []).map(({ start, end }) => ({ start, end }))]),
  ) as Record<WeekdayKey, HoursInterval[]>;
}

/** Monday to Friday, 09:00–17:00: the hours of an event type created without any. */
export const DEFAULT_WEEKLY_HOURS: WeeklyHours = Object.fromEntries(
  [1, 2, 3, 4, 5].map((weekday) => [weekday, [{ start: '09:00', end: '17:00' }]]),
);

/**
 * The rules `input` (as sent) sets over `base` (the defaults of a new event type, or the row being
 * patched): a field absent or of the wrong type keeps the base's value, so only what was sent, and
 * is wrong, shows up as a problem.
 */
export function rulesFromInput(input: unknown, base: SchedulingRules): SchedulingRules {
  const fields = objectOf(input) ?? {};
  const number = (name: string, fallback: number) => (typeof fields[name] === 'number' ? (fields[name] as number) : fallback);
  const nullable = (name: string, fallback: number | null) =>
    fields[name] === null ? null : typeof fields[name] === 'number' ? (fields[name] as number) : fallback;
  const duration = number('duration_minutes', base.durationMinutes);
  return {
    durationMinutes: duration,
    slotIntervalMinutes: number('slot_interval_minutes', base.slotIntervalMinutes),
    bufferBeforeMinutes: number('buffer_before_minutes', base.bufferBeforeMinutes),
    bufferAfterMinutes: number('buffer_after_minutes', base.bufferAfterMinutes),
    minimumNoticeMinutes: number('minimum_notice_minutes', base.minimumNoticeMinutes),
    horizonDays: nullable('horizon_days', base.horizonDays),
    dailyCap: nullable('daily_cap', base.dailyCap),
    timeZone: typeof fields.time_zone === 'string' ? fields.time_zone : base.timeZone,
    weeklyHours: objectOf(fields.weekly_hours) ? storedWeeklyHours(fields.weekly_hours) : base.weeklyHours,
    dateOverrides: Array.isArray(fields.date_overrides) ? storedDateOverrides(fields.date_overrides) : base.dateOverrides,
  };
}

/** The rules' problems under the API's field names: `weekly_hours.1[0].end` reads `weekly_hours.monday[0].end`. */
export function rulesProblems(rules: SchedulingRules): FieldProblem[] {
  // Problems may name another interval too ("overlaps weekly_hours.2[0]"): the same renaming there.
  const named = (text: string) =>
    text.replace(/\bweekly_hours\.([1-7])\b/g, (_, weekday: string) => `weekly_hours.${WEEKDAY_KEYS[Number(weekday) - 1]}`);
  return schedulingRulesProblems(rules).map((problem) => ({ field: named(problem.field), problem: named(problem.problem) }));
}

/** The columns that hold `rules` (checked: rulesProblems found nothing); the zone by its canonical name, overrides by date. */
export function ruleColumns(rules: SchedulingRules) {
  return {
    duration_minutes: rules.durationMinutes,
    slot_interval_minutes: rules.slotIntervalMinutes,
    buffer_before_minutes: rules.bufferBeforeMinutes,
    buffer_after_minutes: rules.bufferAfterMinutes,
    minimum_notice_minutes: rules.minimumNoticeMinutes,
    horizon_days: rules.horizonDays,
    daily_cap: rules.dailyCap,
    time_zone: canonicalTimeZone(rules.timeZone) ?? rules.timeZone,
    weekly_hours: JSON.stringify(rules.weeklyHours),
    date_overrides: JSON.stringify(byDate(rules.dateOverrides)),
  };
}

const byDate = (overrides: readonly DateOverride[]) => [...overrides].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));

export function eventTypeOutput(row: EventTypeRow, links: Pick<MediaLinks, 'bookingPageUrl'>): Static<typeof EventType> {
  const rules = rulesOf(row);
  return {
    event_type_id: row.id,
    name: row.name,
    duration_minutes: rules.durationMinutes,
    slot_interval_minutes: rules.slotIntervalMinutes,
    buffer_before_minutes: rules.bufferBeforeMinutes,
    buffer_after_minutes: rules.bufferAfterMinutes,
    minimum_notice_minutes: rules.minimumNoticeMinutes,
    horizon_days: rules.horizonDays,
    daily_cap: rules.dailyCap,
    value: row.value_amount !== null && row.value_currency !== null ? { amount: row.value_amount, currency: row.value_currency } : null,
    location: row.location,
    time_zone: rules.timeZone,
    weekly_hours: shownWeeklyHours(rules.weeklyHours),
    date_overrides: byDate(rules.dateOverrides).map((override) => ({
      date: override.date,
      hours: override.hours.map(({ start, end }) => ({ start, end })),
    })),
    active: row.active,
    booking_url: links.bookingPageUrl(row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
