/**
 * Candidate starts in a window: every local time on the slot-interval grid counted from each local
 * midnight (09:00, 09:30 … in the event type's zone, day and night), read as instants, that falls in
 * [from, to). Midnight alignment keeps starts on round local times whatever the window's own start
 * (a window from 09:10 still offers 09:30, not 09:40), and on DST days too: a local time in a
 * spring-forward gap gives no candidate, one in a fall-back overlap gives two (one per offset).
 * When the interval does not divide a day (50 minutes), the grid restarts at each midnight.
 */
import { addDays } from '../../../core/calendar/calendar-days.ts';
import type { ZoneClock } from './local-time.ts';

export function candidateStarts(clock: ZoneClock, intervalMinutes: number, from: number, to: number): number[] {
  // A day before and after: a local day's times can fall on the neighbouring UTC dates.
  const firstDay = addDays(clock.wallClockAt(from).day, -1);
  const lastDay = addDays(clock.wallClockAt(to).day, 1);
  const starts: number[] = [];
  for (let day = firstDay; day <= lastDay; day = addDays(day, 1)) {
    for (let minute = 0; minute < 1440; minute += intervalMinutes) {
      for (const at of clock.instantsOf(day, minute)) if (at >= from && at < to) starts.push(at);
    }
  }
  return starts.sort((a, b) => a - b);
}

/** Whether a local time of day (ms since local midnight) is on the grid. */
export function onGrid(msOfDay: number, intervalMinutes: number): boolean {
  return msOfDay % (intervalMinutes * 60_000) === 0;
}
