/**
 * Why a candidate slot is not offered: the reason codes of get_scheduling_availability (issue 14)
 * and the sentence each one carries. A slot gets every reason that applies, in this order, so "why
 * not 09:00?" is answered completely in one read, not one obstacle at a time.
 */
import type { DayHours } from './weekly-hours.ts';
import { hoursText } from './weekly-hours.ts';

export const SLOT_REASON_CODES = [
  'past',
  'min_notice',
  'beyond_horizon',
  'outside_hours',
  'date_override',
  'booked',
  'buffer',
  'daily_cap',
  'busy_calendar',
  // Only for a start asked about on its own (explainStart): candidates are on the grid by construction.
  'off_interval',
] as const;
export type SlotReasonCode = (typeof SLOT_REASON_CODES)[number];

export interface SlotReason {
  code: SlotReasonCode;
  message: string;
  /** booked and buffer: the bookings in the way, earliest first. */
  bookingIds?: string[];
  /** busy_calendar: the feeds whose busy times overlap, as given. */
  feeds?: string[];
}

/** A candidate start and the verdict on it. Times are instants; the local fields are in the event type's zone. */
export interface SlotVerdict {
  start: Date;
  end: Date;
  /** 'YYYY-MM-DD' */
  localDate: string;
  /** 'HH:MM' */
  localTime: string;
  /** '-04:00': tells the two 01:30s of a fall-back night apart. */
  utcOffset: string;
  offered: boolean;
  reasons: SlotReason[];
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export const reasonText = {
  past: (startLabel: string) => `It starts at ${startLabel}, which is already past.`,
  minNotice: (minutesAhead: number, notice: number) =>
    `It starts in ${plural(minutesAhead, 'minute')}; bookings need at least ${plural(notice, 'minute')}' notice.`,
  beyondHorizon: (day: string, horizonDays: number, lastDay: string) =>
    `It falls on ${day}, beyond how far ahead bookings are taken (${plural(horizonDays, 'day')}: the last bookable day is ${lastDay}).`,
  outsideHours: (span: string, weekday: string, hours: DayHours) =>
    hours.intervals.length === 0
      ? `${span} falls on a ${weekday}, which has no working hours.`
      : `${span} is not inside one stretch of the ${weekday} working hours (${hoursText(hours.intervals)}).`,
  dateOverride: (span: string, hours: DayHours) =>
    hours.intervals.length === 0
      ? `${span} falls on ${hours.day}, which a date override closes all day.`
      : `${span} is not inside one stretch of the hours a date override sets for ${hours.day} (${hoursText(hours.intervals)}).`,
  booked: (labels: string[]) => `It overlaps ${labels.length === 1 ? 'booking' : 'bookings'} ${labels.join('; ')}.`,
  buffer: (labels: string[], before: number, after: number) =>
    `It leaves too little time around ${labels.length === 1 ? 'booking' : 'bookings'} ${labels.join('; ')}: ` +
    `${plural(before, 'minute')} are kept free before each meeting and ${plural(after, 'minute')} after.`,
  dailyCap: (day: string, count: number, cap: number) => `${day} already has ${plural(count, 'booking')}, and the daily cap is ${cap}.`,
  busyCalendar: (labels: string[]) => `It overlaps busy time on ${labels.length === 1 ? 'calendar' : 'calendars'} ${labels.join('; ')}.`,
  offInterval: (startLabel: string, interval: number, earlier: string, later: string | undefined) =>
    `${startLabel} is not a start time: starts are every ${plural(interval, 'minute')} from local midnight ` +
    `(the nearest are ${earlier}${later ? ` and ${later}` : ''}).`,
};
