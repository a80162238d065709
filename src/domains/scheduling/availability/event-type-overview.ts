/**
 * One event type's line of get_scheduling_overview, from the engine's verdicts on the next 28 days
 * (one slotsInWindow call), its bookings and the workspace's calendar feeds. Pure.
 *
 * - Offered counts are what the engine offers now; booked counts are confirmed bookings starting in
 *   the period. Utilization is booked / (booked + offered): the share of the open time taken.
 * - The busiest weekdays and hours count confirmed bookings starting from 90 days ago to 28 days
 *   ahead, read in the event type's zone: the past shows the habit, the future what is coming.
 * - no_hours: no weekly hours and no date override opening a day from today. fully_blocked: hours
 *   there are, but no slot in the next 28 days, with what blocks the candidates inside the hours.
 *   calendar_failing: a feed whose last fetch failed. inactive: the type offers nothing.
 */
import type { Static } from 'typebox';
import { localDay } from '../../../core/calendar/time-zone.ts';
import type { EventTypeRow } from '../../../db/tables/index.ts';
import type { CalendarFeedState } from './blocking-details.queries.ts';
import { isoWeekdayOf } from './local-time.ts';
import { type OverviewProblemCode, type SchedulingOverview, WEEKDAY_KEYS } from './overview.schemas.ts';
import type { SlotVerdict } from './slot-reasons.ts';
import type { ZonedTimes } from './zoned-time.ts';

type EventTypeOverview = Static<typeof SchedulingOverview>['event_types'][number];
type Problem = EventTypeOverview['problems'][number];

const DAY_MS = 86_400_000;
export const OVERVIEW_DAYS = 28;
export const BUSIEST_PAST_DAYS = 90;
const BUSIEST_SHOWN = 3;

export interface OverviewInputs {
  eventType: EventTypeRow;
  bookingUrl: string;
  now: Date;
  /** The engine's verdicts on [now, now + 28 days); empty for an inactive type. */
  verdicts: readonly SlotVerdict[];
  /** Starts of this type's confirmed bookings from 90 days ago to 28 days ahead. */
  bookingStarts: readonly Date[];
  feeds: readonly CalendarFeedState[];
  /** In the event type's zone, over the bookings' span: their weekdays and hours, and the next slot's local time. */
  times: ZonedTimes;
}

const ratio = (booked: number, offered: number, active: boolean) =>
  !active || booked + offered === 0 ? null : Math.round((booked / (booked + offered)) * 1000) / 1000;

export function eventTypeOverview(inputs: OverviewInputs): EventTypeOverview {
  const { eventType, now, verdicts } = inputs;
  const weekAhead = now.getTime() + 7 * DAY_MS;
  const monthAhead = now.getTime() + OVERVIEW_DAYS * DAY_MS;
  const offered = verdicts.filter((verdict) => verdict.offered);
  const offeredWeek = offered.filter((verdict) => verdict.start.getTime() < weekAhead).length;
  const ahead = inputs.bookingStarts.filter((start) => start.getTime() >= now.getTime() && start.getTime() < monthAhead);
  const bookedWeek = ahead.filter((start) => start.getTime() < weekAhead).length;
  const next = offered[0];
  return {
    event_type_id: eventType.id,
    name: eventType.name,
    active: eventType.active,
    time_zone: eventType.time_zone,
    duration_minutes: eventType.duration_minutes,
    booking_url: inputs.bookingUrl,
    next_offered: next ? { start: next.start.toISOString(), local_start: inputs.times.iso(next.start) } : null,
    next_7_days: { offered: offeredWeek, booked: bookedWeek, utilization: ratio(bookedWeek, offeredWeek, eventType.active) },
    next_28_days: { offered: offered.length, booked: ahead.length, utilization: ratio(ahead.length, offered.length, eventType.active) },
    ...busiest(inputs),
    problems: problemsOf(inputs, offered.length),
  };
}

function busiest(inputs: OverviewInputs): Pick<EventTypeOverview, 'busiest_weekdays' | 'busiest_hours'> {
  const weekdays = new Array<number>(7).fill(0);
  const hours = new Array<number>(24).fill(0);
  for (const start of inputs.bookingStarts) {
    const wall = inputs.times.clock.wallClockAt(start.getTime());
    const weekday = isoWeekdayOf(wall.day) - 1;
    weekdays[weekday] = (weekdays[weekday] ?? 0) + 1;
    const hour = Math.floor(wall.msOfDay / 3_600_000);
    hours[hour] = (hours[hour] ?? 0) + 1;
  }
  // Most first; ties in calendar order (Monday before Tuesday, 09:00 before 10:00).
  const top = (counts: number[]) =>
    counts
      .map((count, index) => ({ index, count }))
      .filter((entry) => entry.count > 0)
      .sort((a, b) => b.count - a.count || a.index - b.index)
      .slice(0, BUSIEST_SHOWN);
  return {
    busiest_weekdays: top(weekdays).map(({ index, count }) => ({
      weekday: WEEKDAY_KEYS[index] as (typeof WEEKDAY_KEYS)[number],
      bookings: count,
    })),
    busiest_hours: top(hours).map(({ index, count }) => ({ hour: index, bookings: count })),
  };
}

function problemsOf(inputs: OverviewInputs, offeredCount: number): Problem[] {
  const { eventType, now } = inputs;
  const problem = (code: OverviewProblemCode, message: string): Problem => ({ code, message });
  if (!eventType.active) return [problem('inactive', 'It is inactive: it offers no slot until it is made active again.')];
  const problems: Problem[] = [];
  const today = localDay(now, eventType.time_zone);
  const weeklyOpen = Object.values(eventType.weekly_hours).some((intervals) => (intervals?.length ?? 0) > 0);
  const overrideOpens = eventType.date_overrides.some((override) => override.date >= today && override.hours.length > 0);
  if (!weeklyOpen && !overrideOpens) {
    problems.push(problem('no_hours', 'It has no weekly hours and no date override opening a day from today on: it offers no slot.'));
  } else if (offeredCount === 0) {
    problems.push(problem('fully_blocked', fullyBlockedMessage(inputs.verdicts)));
  }
  for (const feed of inputs.feeds) {
    if (feed.last_error === null) continue;
    const fetched = feed.last_fetched_at ? ` at ${feed.last_fetched_at.toISOString()}` : '';
    const kept = feed.last_success_at
      ? `the busy times of its last successful fetch (${feed.last_success_at.toISOString()}) still block slots, and newer events are missed`
      : 'it has never been read, so none of its events block slots';
    problems.push({
      code: 'calendar_failing',
      message: `Calendar “${feed.name}” failed its last fetch${fetched} (${feed.last_error.replace(/[.\s]+$/, '')}): ${kept}.`,
      calendar_feed_id: feed.id,
    });
  }
  return problems;
}

/** What keeps the candidates inside the hours from being offered, most frequent first. */
function fullyBlockedMessage(verdicts: readonly SlotVerdict[]): string {
  const insideHours = verdicts.filter((verdict) => !verdict.reasons.some((r) => r.code === 'outside_hours' || r.code === 'date_override'));
  if (insideHours.length === 0) {
    return (
      `No slot is offered in the next ${OVERVIEW_DAYS} days: no call fits inside its hours there ` +
      '(the hours are closed on those days, a date override closes them, or each stretch of hours is shorter than a call).'
    );
  }
  const counts = new Map<string, number>();
  for (const verdict of insideHours) for (const reason of verdict.reasons) counts.set(reason.code, (counts.get(reason.code) ?? 0) + 1);
  const listed = [...counts].sort((a, b) => b[1] - a[1]).map(([code, count]) => `${code} ${count}`);
  return `No slot is offered in the next ${OVERVIEW_DAYS} days: of the ${insideHours.length} candidates inside its hours, ${listed.join(', ')}.`;
}
