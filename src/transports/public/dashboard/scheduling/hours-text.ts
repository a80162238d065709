/** Open hours written for people: "09:00–12:00, 13:00–17:00", and a week summed up as "Mon–Fri 09:00–17:00". */
import type { Interval, Weekday } from './scheduling-types.ts';
import { WEEKDAYS } from './scheduling-types.ts';

const SHORT: Record<Weekday, string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
};

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

export function intervalsText(hours: Interval[]): string {
  return hours.length === 0 ? 'Closed' : hours.map((h) => `${h.start}–${h.end}`).join(', ');
}

/** Consecutive weekdays with the same hours become one range; closed days are left out. */
export function weekSummary(week: Record<Weekday, Interval[]>): string {
  const parts: string[] = [];
  let runStart = 0;
  for (let i = 1; i <= WEEKDAYS.length; i++) {
    const previous = intervalsText(week[WEEKDAYS[i - 1] as Weekday] ?? []);
    const current = i < WEEKDAYS.length ? intervalsText(week[WEEKDAYS[i] as Weekday] ?? []) : null;
    if (current === previous) continue;
    if (previous !== 'Closed') {
      const first = SHORT[WEEKDAYS[runStart] as Weekday];
      const last = SHORT[WEEKDAYS[i - 1] as Weekday];
      parts.push(`${first === last ? first : `${first}–${last}`} ${previous}`);
    }
    runStart = i;
  }
  return parts.length === 0 ? 'No weekly hours' : parts.join('; ');
}

/** "30 min", "1 h", "1 h 30 min" */
export function minutesText(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}
