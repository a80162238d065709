/**
 * What the slot engine reads (issue 14): an event type's scheduling rules, the bookings already made
 * and the busy times of the workspace's calendars. Plain values, no database: the operations load
 * them and hand them in, so availability is a pure function of them and of `now`.
 */

// The stored shapes of hours are the table's (src/db/tables/scheduling.ts), so the database layer
// needs nothing from this area; the slot engine reads them as they are.
import type { DateOverride, HoursInterval, IsoWeekday, WeeklyHours } from '../../../db/tables/scheduling.ts';

export type { DateOverride, HoursInterval, IsoWeekday, WeeklyHours };

/** ISO weekdays: 1 is Monday, 7 is Sunday (not JavaScript's Sunday-first 0–6, a classic off-by-one). */
export const ISO_WEEKDAYS: readonly IsoWeekday[] = [1, 2, 3, 4, 5, 6, 7];
export const WEEKDAY_NAMES: Readonly<Record<IsoWeekday, string>> = {
  1: 'Monday',
  2: 'Tuesday',
  3: 'Wednesday',
  4: 'Thursday',
  5: 'Friday',
  6: 'Saturday',
  7: 'Sunday',
};

export interface SchedulingRules {
  durationMinutes: number;
  /** Candidates start every this many minutes, counted from each local midnight. */
  slotIntervalMinutes: number;
  /** Kept free before each meeting (the slot's and every booking's). */
  bufferBeforeMinutes: number;
  /** Kept free after each meeting. */
  bufferAfterMinutes: number;
  /** A slot must start at least this long after `now`. */
  minimumNoticeMinutes: number;
  /** The last bookable local day is today plus this many days (0: today only); null: no limit. */
  horizonDays: number | null;
  /** At most this many counted bookings per local day; null: no cap. */
  dailyCap: number | null;
  /** IANA zone in which hours, overrides, days of the cap and the horizon are read. */
  timeZone: string;
  weeklyHours: WeeklyHours;
  dateOverrides: readonly DateOverride[];
}

export interface ExistingBooking {
  id: string;
  start: Date;
  end: Date;
  /** Whether it counts toward this event type's daily cap (a booking of another event type blocks time but does not count). */
  countsTowardCap: boolean;
  /** A booking made under other buffers (another event type) keeps its own; otherwise the rules' buffers apply. */
  bufferBeforeMinutes?: number;
  bufferAfterMinutes?: number;
}

/** Time an outside calendar marks busy. */
export interface BusyInterval {
  start: Date;
  end: Date;
  /** Which feed said so (its name or URL, as the operation wants it shown). */
  feed: string;
}

/** What a window or one start is judged against besides the rules. */
export interface SlotContext {
  now: Date;
  bookings: readonly ExistingBooking[];
  busy: readonly BusyInterval[];
}

/** The longest window `slotsInWindow` answers for (issue 14: `to` at most 31 days after `from`). */
export const MAX_WINDOW_DAYS = 31;

/**
 * Bounds the engine relies on. The slot interval's floor keeps a 31-day window at most 8,928
 * candidates (every one is listed with its reasons); durations and buffers stay within a day so a
 * slot touches at most two local days.
 */
export const RULE_BOUNDS = {
  durationMinutes: { min: 5, max: 1440 },
  slotIntervalMinutes: { min: 5, max: 1440 },
  bufferMinutes: { min: 0, max: 1440 },
  minimumNoticeMinutes: { min: 0, max: 525_600 },
  horizonDays: { min: 0, max: 3650 },
  dailyCap: { min: 1, max: 1000 },
  intervalsPerDay: { max: 12 },
  dateOverrides: { max: 366 },
} as const;
