/**
 * The verdict on one start: every rule checked on its own, so a slot lists all its reasons. Built
 * once per request (hours per day, bookings per day are kept), then asked about each candidate.
 *
 * Choices the checks make (to be carried into docs/scheduling.md):
 * - `past` and `min_notice` do not both apply: a start before `now` is past; one from `now` up to
 *   the notice is min_notice.
 * - The horizon counts local days: with 30 days, the last bookable day is today's local date + 30.
 * - Hours: the slot, start to end in real time, must lie inside one stretch of its start day's hours
 *   (touching intervals joined). The start day's override, when it has one, is what excludes it
 *   (`date_override`), otherwise the weekly hours (`outside_hours`); never both.
 * - `booked`: the slot overlaps a booking. `buffer`: it does not, but the slot widened by the
 *   buffers overlaps the booking widened by its buffers, so between two meetings there is at least
 *   the first one's after-buffer plus the second one's before-buffer.
 * - Busy calendar times block the slot itself, without buffers: they are someone else's events.
 * - The daily cap counts bookings by the local day they start on.
 */
import { addDays } from '../../../core/calendar/calendar-days.ts';
import { localDay } from '../../../core/calendar/time-zone.ts';
import { IntervalsByStart } from './intervals-by-start.ts';
import { clockText, isoWeekdayOf, offsetText, type ZoneClock } from './local-time.ts';
import type { BusyInterval, DateOverride, ExistingBooking, SchedulingRules, SlotContext } from './scheduling-rules.ts';
import { WEEKDAY_NAMES } from './scheduling-rules.ts';
import { reasonText, type SlotReason, type SlotVerdict } from './slot-reasons.ts';
import { type DayHours, hoursOfDay, openRanges, overridesByDay } from './weekly-hours.ts';

const MINUTE_MS = 60_000;

interface DayOpenTime {
  hours: DayHours;
  ranges: [number, number][];
}

export class SlotJudge {
  private readonly overrides: Map<string, DateOverride>;
  private readonly days = new Map<string, DayOpenTime>();
  private readonly cappedPerDay = new Map<string, number>();
  private readonly lastBookableDay: string | undefined;
  private readonly rules: SchedulingRules;
  private readonly context: SlotContext;
  private readonly clock: ZoneClock;
  private readonly bookings: IntervalsByStart<ExistingBooking>;
  /** Bookings widened by their buffers: the slot widened by its own may not reach them. */
  private readonly widenedBookings: IntervalsByStart<ExistingBooking>;
  private readonly busy: IntervalsByStart<BusyInterval>;

  /** `range`: the instants the clock was read for; a booking starting outside them cannot share a local day with a slot judged here. */
  constructor(rules: SchedulingRules, context: SlotContext, clock: ZoneClock, range: { from: number; to: number }) {
    this.rules = rules;
    this.context = context;
    this.clock = clock;
    this.bookings = new IntervalsByStart(context.bookings, (b) => [b.start.getTime(), b.end.getTime()]);
    this.widenedBookings = new IntervalsByStart(context.bookings, (b) => [
      b.start.getTime() - (b.bufferBeforeMinutes ?? rules.bufferBeforeMinutes) * MINUTE_MS,
      b.end.getTime() + (b.bufferAfterMinutes ?? rules.bufferAfterMinutes) * MINUTE_MS,
    ]);
    this.busy = new IntervalsByStart(context.busy, (b) => [b.start.getTime(), b.end.getTime()]);
    this.overrides = overridesByDay(rules);
    for (const booking of context.bookings) {
      const at = booking.start.getTime();
      if (!booking.countsTowardCap || at < range.from || at >= range.to) continue;
      const day = clock.wallClockAt(at).day;
      this.cappedPerDay.set(day, (this.cappedPerDay.get(day) ?? 0) + 1);
    }
    // `now` may lie far from the window, where the clock's offsets are not read: ask Intl directly.
    if (rules.horizonDays !== null) this.lastBookableDay = addDays(localDay(context.now, rules.timeZone), rules.horizonDays);
  }

  judge(startMs: number, extra: SlotReason[] = []): SlotVerdict {
    const { rules, context, clock } = this;
    const endMs = startMs + rules.durationMinutes * MINUTE_MS;
    const wall = clock.wallClockAt(startMs);
    const reasons: SlotReason[] = [];
    const nowMs = context.now.getTime();

    if (startMs < nowMs) reasons.push({ code: 'past', message: reasonText.past(clock.label(startMs)) });
    else if (startMs < nowMs + rules.minimumNoticeMinutes * MINUTE_MS) {
      const minutesAhead = Math.floor((startMs - nowMs) / MINUTE_MS);
      reasons.push({ code: 'min_notice', message: reasonText.minNotice(minutesAhead, rules.minimumNoticeMinutes) });
    }
    if (this.lastBookableDay !== undefined && wall.day > this.lastBookableDay) {
      reasons.push({ code: 'beyond_horizon', message: reasonText.beyondHorizon(wall.day, rules.horizonDays ?? 0, this.lastBookableDay) });
    }

    const open = this.openTime(wall.day);
    if (!open.ranges.some(([from, to]) => from <= startMs && endMs <= to)) {
      const span = `${clock.label(startMs)} to ${clockText(clock.wallClockAt(endMs).msOfDay)}`;
      reasons.push(
        open.hours.override
          ? { code: 'date_override', message: reasonText.dateOverride(span, open.hours) }
          : { code: 'outside_hours', message: reasonText.outsideHours(span, WEEKDAY_NAMES[isoWeekdayOf(wall.day)], open.hours) },
      );
    }

    const overlapping = this.bookings.overlapping(startMs, endMs);
    if (overlapping.length > 0) {
      const sorted = byStart(overlapping);
      reasons.push({
        code: 'booked',
        message: reasonText.booked(sorted.map((b) => this.bookingLabel(b))),
        bookingIds: sorted.map((b) => b.id),
      });
    }
    const widenedFrom = startMs - rules.bufferBeforeMinutes * MINUTE_MS;
    const widenedTo = endMs + rules.bufferAfterMinutes * MINUTE_MS;
    const tooClose = this.widenedBookings.overlapping(widenedFrom, widenedTo).filter((b) => !overlapping.includes(b));
    if (tooClose.length > 0) {
      const sorted = byStart(tooClose);
      reasons.push({
        code: 'buffer',
        message: reasonText.buffer(
          sorted.map((b) => this.bookingLabel(b)),
          rules.bufferBeforeMinutes,
          rules.bufferAfterMinutes,
        ),
        bookingIds: sorted.map((b) => b.id),
      });
    }

    const booked = this.cappedPerDay.get(wall.day) ?? 0;
    if (rules.dailyCap !== null && booked >= rules.dailyCap) {
      reasons.push({ code: 'daily_cap', message: reasonText.dailyCap(wall.day, booked, rules.dailyCap) });
    }

    const sorted = this.busy.overlapping(startMs, endMs);
    if (sorted.length > 0) {
      const feeds = [...new Set(sorted.map((b) => b.feed))];
      const labels = sorted.map((b) => `${b.feed} (${clock.label(b.start.getTime())} to ${clock.label(b.end.getTime())})`);
      reasons.push({ code: 'busy_calendar', message: reasonText.busyCalendar(labels), feeds });
    }

    reasons.push(...extra);
    return {
      start: new Date(startMs),
      end: new Date(endMs),
      localDate: wall.day,
      localTime: clockText(wall.msOfDay),
      utcOffset: offsetText(wall.offsetMs),
      offered: reasons.length === 0,
      reasons,
    };
  }

  private openTime(day: string): DayOpenTime {
    let open = this.days.get(day);
    if (!open) {
      const hours = hoursOfDay(this.rules, this.overrides, day);
      open = { hours, ranges: openRanges(this.clock, hours) };
      this.days.set(day, open);
    }
    return open;
  }

  private bookingLabel(booking: ExistingBooking): string {
    return `${booking.id} (${this.clock.label(booking.start.getTime())} to ${this.clock.label(booking.end.getTime())})`;
  }
}

function byStart(bookings: ExistingBooking[]): ExistingBooking[] {
  return [...bookings].sort((a, b) => a.start.getTime() - b.start.getTime() || a.id.localeCompare(b.id));
}
