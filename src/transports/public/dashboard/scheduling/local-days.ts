/**
 * Calendar days in a time zone, for the month grid and the explainer: today's date where the event type
 * keeps its hours, the days of a month laid out Monday first, and the weekday of a date. Plain dates
 * (YYYY-MM-DD) are computed at noon UTC, where no offset can move them to another day.
 */
import { localDay } from '../../../../core/calendar/time-zone.ts';
import { dateTimeFormat } from '../kit/intl-formats.ts';
import type { Weekday } from './scheduling-types.ts';
import { WEEKDAYS } from './scheduling-types.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

/** Today's date (YYYY-MM-DD) in `timeZone`. */
export function todayIn(timeZone: string, now: Date): string {
  try {
    return localDay(now, timeZone);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

export function isDate(text: string | undefined): text is string {
  if (!text) return false;
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

export function isMonth(text: string | undefined): text is string {
  return Boolean(text && MONTH.test(text) && Number(text.slice(5)) >= 1 && Number(text.slice(5)) <= 12);
}

export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

export function addMonths(month: string, months: number): string {
  const at = new Date(`${month}-01T12:00:00Z`);
  at.setUTCMonth(at.getUTCMonth() + months);
  return at.toISOString().slice(0, 7);
}

export function weekdayOf(date: string): Weekday {
  // getUTCDay: 0 is Sunday; WEEKDAYS starts on Monday.
  return WEEKDAYS[(new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7] as Weekday;
}

/** The month's weeks, Monday first; days of the neighbouring months are null. */
export function monthWeeks(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const lead = WEEKDAYS.indexOf(weekdayOf(first));
  const days: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let day = first; day.startsWith(month); day = addDays(day, 1)) days.push(day);
  while (days.length % 7 !== 0) days.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return weeks;
}

/** "November 2026" */
export function monthLabel(month: string): string {
  return dateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-15T12:00:00Z`));
}

/** "Tuesday, November 3, 2026" */
export function dayLabel(date: string): string {
  return dateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** "10:30" from a local ISO time (`2026-11-03T10:30:00+01:00`): the wall clock the API wrote. */
export function clockOf(localIso: string): string {
  return localIso.slice(11, 16);
}

/** A wall-clock time in another zone, "Nov 3, 2026, 10:30 AM" style but 24-hour-free of locale surprises. */
export function zonedDateTime(iso: string, timeZone: string): string {
  try {
    return dateTimeFormat('en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
    }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** "10:30 AM" in `timeZone`. */
export function zonedTime(iso: string, timeZone: string): string {
  try {
    return dateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(new Date(iso));
  } catch {
    return iso.slice(11, 16);
  }
}

/** A plain date's noon in UTC, as an ISO instant: the middle of that day in every zone within ±12 h. */
export function middayUtc(date: string): Date {
  return new Date(`${date}T12:00:00Z`);
}
