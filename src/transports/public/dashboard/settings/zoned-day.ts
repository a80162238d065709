/**
 * The instant a calendar day starts in a time zone, so the audit log's "From" and "To" days mean the
 * workspace's days, as every date the dashboard shows does.
 */
import { dateTimeFormat } from '../kit/intl-formats.ts';

/** Minutes the zone is ahead of UTC at `instant`. */
function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = dateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((asUtc - instant.getTime()) / 60_000);
}

/** YYYY-MM-DD → the ISO instant of that day's midnight in `timeZone` (plus `days`), or undefined if it is no day. */
export function dayStart(day: string, timeZone: string, days = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const utcMidnight = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  if (Number.isNaN(utcMidnight)) return undefined;
  let zone = timeZone;
  try {
    dateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  // Twice: the offset at the guess can differ from the offset at the answer across a clock change.
  const first = utcMidnight - offsetMinutes(new Date(utcMidnight), zone) * 60_000;
  const second = utcMidnight - offsetMinutes(new Date(first), zone) * 60_000;
  return new Date(second).toISOString();
}
