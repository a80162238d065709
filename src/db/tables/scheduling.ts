/**
 * Scheduling: event types with their rules and hours, the bookings made, and the outside calendars
 * whose busy times block slots. See migration 0018 and docs/scheduling.md.
 */
import type { ColumnType } from 'kysely';
import type { Timestamp } from './column-types.ts';

/** Monday 1 to Sunday 7, as ISO 8601 numbers weekdays. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * Open time on a local day, [start, end) in wall-clock "HH:MM". `end` may be "24:00" (the next
 * midnight). An instant is inside when the event type's wall clock reads a time in it on that day.
 */
export interface HoursInterval {
  start: string;
  end: string;
}

/** Hours per ISO weekday; a weekday left out (or with no intervals) is closed. */
export type WeeklyHours = Readonly<Partial<Record<IsoWeekday, readonly HoursInterval[]>>>;

/** One local date whose hours replace the weekly ones: no intervals closes the day. */
export interface DateOverride {
  /** 'YYYY-MM-DD', a day in the event type's time zone. */
  date: string;
  hours: readonly HoursInterval[];
}

export type BookingStatus = 'confirmed' | 'canceled';
export type BookingCanceledBy = 'workspace' | 'invitee';

export interface EventTypesTable {
  id: string;
  workspace_id: string;
  name: string;
  duration_minutes: number;
  slot_interval_minutes: number;
  buffer_before_minutes: ColumnType<number, number | undefined, number>;
  buffer_after_minutes: ColumnType<number, number | undefined, number>;
  minimum_notice_minutes: ColumnType<number, number | undefined, number>;
  /** The last bookable local day is today plus this many days; null: no limit. */
  horizon_days: number | null;
  daily_cap: number | null;
  /** What a booked call is worth in the ledger, in the currency's minor unit; null with value_currency: none. */
  value_amount: number | null;
  value_currency: string | null;
  /** Where the call happens: an address, a phone number or a meeting link. */
  location: string | null;
  time_zone: string;
  /** JSON written with JSON.stringify: keys "1" (Monday) to "7" (Sunday). */
  weekly_hours: ColumnType<WeeklyHours, string, string>;
  date_overrides: ColumnType<DateOverride[], string | undefined, string>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BookingsTable {
  id: string;
  workspace_id: string;
  event_type_id: string;
  status: ColumnType<BookingStatus, BookingStatus | undefined, BookingStatus>;
  starts_at: Timestamp;
  ends_at: Timestamp;
  /** The event type's buffers when it was booked: the time kept free around this call. */
  buffer_before_minutes: ColumnType<number, number | undefined, number>;
  buffer_after_minutes: ColumnType<number, number | undefined, number>;
  /** Null once the invitee was erased (erase_lead): the booking stays as anonymous blocked time. */
  invitee_email: string | null;
  invitee_name: string | null;
  invitee_phone: string | null;
  invitee_timezone: string | null;
  lead_id: string | null;
  /** The `booked_call` outcome it recorded in the ledger. */
  outcome_id: string | null;
  /** Where it was booked from: a watch page's video, a route. */
  video_id: string | null;
  route_id: string | null;
  /** SHA-256 (hex) of the secret in the invitee's cancel link. */
  cancel_token_hash: string;
  canceled_at: Timestamp | null;
  canceled_by: BookingCanceledBy | null;
  cancel_reason: string | null;
  /** When it was last moved to another time (the id stays). */
  rescheduled_at: Timestamp | null;
  /** The calendar file's SEQUENCE: one more on each reschedule and on the cancellation (migration 0019). */
  sequence: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CalendarFeedsTable {
  id: string;
  workspace_id: string;
  name: string;
  /** The feed's URL, sealed (ctx.sealedBox): such URLs often carry a private token. */
  url_sealed: string;
  /** The URL as answers show it: scheme, host and a shortened path, no query. */
  url_display: string;
  last_fetched_at: Timestamp | null;
  last_success_at: Timestamp | null;
  /** Why the last fetch failed, in a sentence; null after a success. */
  last_error: string | null;
  /** Busy intervals kept from the last successful fetch. */
  busy_count: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CalendarBusyTimesTable {
  feed_id: string;
  workspace_id: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  /** The event's SUMMARY, kept for the workspace's own eyes (never shown on public pages). */
  summary: string | null;
}
