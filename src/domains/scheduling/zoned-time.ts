/**
 * An instant written as the wall clock of a zone shows it, with the offset that makes it exact:
 * '2026-12-01T10:00:00+01:00'. ISO 8601 and RFC 3339 both read it back to the same instant, so an
 * answer can say "10:00 your time" without losing which instant it means.
 */
import { utcOffsetMs } from '../../core/calendar/time-zone.ts';
import { offsetText } from './local-time.ts';

export function zonedIso(at: Date, timeZone: string): string {
  const offset = utcOffsetMs(at.getTime(), timeZone);
  const wall = new Date(Math.floor(at.getTime() / 1000) * 1000 + offset).toISOString().slice(0, 19);
  return `${wall}${offsetText(offset)}`;
}
