/**
 * An event type row as the slot engine reads it. The one place that maps columns to rules, so the
 * availability, the booking check and the overview judge a slot by exactly the same rules.
 */
import type { EventTypeRow } from '../../../db/tables/index.ts';
import type { SchedulingRules } from './scheduling-rules.ts';

export type EventTypeRulesColumns = Pick<
  EventTypeRow,
  | 'duration_minutes'
  | 'slot_interval_minutes'
  | 'buffer_before_minutes'
  | 'buffer_after_minutes'
  | 'minimum_notice_minutes'
  | 'horizon_days'
  | 'daily_cap'
  | 'time_zone'
  | 'weekly_hours'
  | 'date_overrides'
>;

export function rulesOf(row: EventTypeRulesColumns): SchedulingRules {
  return {
    durationMinutes: row.duration_minutes,
    slotIntervalMinutes: row.slot_interval_minutes,
    bufferBeforeMinutes: row.buffer_before_minutes,
    bufferAfterMinutes: row.buffer_after_minutes,
    minimumNoticeMinutes: row.minimum_notice_minutes,
    horizonDays: row.horizon_days,
    dailyCap: row.daily_cap,
    timeZone: row.time_zone,
    weeklyHours: row.weekly_hours,
    dateOverrides: row.date_overrides,
  };
}
