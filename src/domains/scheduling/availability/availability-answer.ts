/**
 * Turns the slot engine's verdicts into get_scheduling_availability's answer: times in UTC and in the
 * display zone, offered slots one by one, the rest in runs, each reason with its sentence and what
 * is in the way named (bookings by id, time, event type and invitee name, masked by the pipeline;
 * calendars by id and name), and counts per reason over every candidate.
 */
import type { Static } from 'typebox';
import type { EventTypeRow } from '../../../db/tables/index.ts';
import type { AvailabilityReasonCode, Availability as AvailabilitySchema, Reason as ReasonSchema } from './availability.schemas.ts';
import { AVAILABILITY_REASON_CODES } from './availability.schemas.ts';
import type { BlockingBooking, CalendarFeedState } from './blocking-details.queries.ts';
import { notOfferedRuns } from './not-offered-runs.ts';
import type { SlotReason, SlotVerdict } from './slot-reasons.ts';
import type { ZonedTimes } from './zoned-time.ts';

type Availability = Static<typeof AvailabilitySchema>;
type Reason = Static<typeof ReasonSchema>;

export const INACTIVE_MESSAGE = 'The event type is inactive: it offers no slot until it is made active again.';

type AnswerReason = Omit<SlotReason, 'code'> & { code: AvailabilityReasonCode };
/** A verdict as the answer gives it: an inactive event type's candidate is never offered, `inactive` first among its reasons. */
type AnsweredVerdict = Omit<SlotVerdict, 'reasons'> & { reasons: AnswerReason[] };

function answered(verdict: SlotVerdict, active: boolean): AnsweredVerdict {
  if (active) return verdict;
  return { ...verdict, offered: false, reasons: [{ code: 'inactive', message: INACTIVE_MESSAGE }, ...verdict.reasons] };
}

export interface AnswerParts {
  eventType: EventTypeRow;
  bookingUrl: string;
  now: Date;
  window: { from: Date; to: Date };
  verdicts: readonly SlotVerdict[];
  /** With `start`: the verdict on it (also among `verdicts`). */
  asked: SlotVerdict | undefined;
  includeNotOffered: boolean;
  times: ZonedTimes;
  bookings: Map<string, BlockingBooking>;
  feeds: readonly CalendarFeedState[];
}

export function availabilityAnswer(parts: AnswerParts): Availability {
  const { eventType, times } = parts;
  const verdicts = parts.verdicts.map((verdict) => answered(verdict, eventType.active));
  const asked = parts.asked && answered(parts.asked, eventType.active);
  const reasonOf = (reason: AnswerReason): Reason => describedReason(reason, parts);
  const counts = Object.fromEntries(AVAILABILITY_REASON_CODES.map((code) => [code, 0])) as Record<AvailabilityReasonCode, number>;
  let offeredCount = 0;
  for (const verdict of verdicts) {
    if (verdict.offered) offeredCount += 1;
    for (const reason of verdict.reasons) counts[reason.code] += 1;
  }
  const slotTimes = (verdict: AnsweredVerdict) => ({
    start: verdict.start.toISOString(),
    end: verdict.end.toISOString(),
    local_start: times.iso(verdict.start),
    local_end: times.iso(verdict.end),
  });
  return {
    event_type: {
      event_type_id: eventType.id,
      name: eventType.name,
      active: eventType.active,
      duration_minutes: eventType.duration_minutes,
      slot_interval_minutes: eventType.slot_interval_minutes,
      time_zone: eventType.time_zone,
      booking_url: parts.bookingUrl,
    },
    timezone: times.timeZone,
    now: parts.now.toISOString(),
    window: { from: parts.window.from.toISOString(), to: parts.window.to.toISOString() },
    slot: asked ? { ...slotTimes(asked), offered: asked.offered, reasons: asked.reasons.map(reasonOf) } : null,
    candidates: verdicts.length,
    offered_count: offeredCount,
    not_offered_count: verdicts.length - offeredCount,
    reason_counts: counts,
    offered: verdicts.filter((verdict) => verdict.offered).map(slotTimes),
    not_offered: parts.includeNotOffered
      ? notOfferedRuns(verdicts).map((run) => ({
          start: run.first.start.toISOString(),
          last_start: run.last.start.toISOString(),
          starts: run.members.map((member) => member.start.toISOString()),
          local_start: times.iso(run.first.start),
          local_last_start: times.iso(run.last.start),
          count: run.count,
          reasons: run.first.reasons.map(reasonOf),
        }))
      : [],
  };
}

function describedReason(reason: AnswerReason, parts: AnswerParts): Reason {
  const described: Reason = { code: reason.code, message: reason.message };
  if (reason.bookingIds) {
    described.bookings = reason.bookingIds.flatMap((id) => {
      const booking = parts.bookings.get(id);
      if (!booking) return [];
      return [
        {
          booking_id: id,
          event_type: booking.event_type_name,
          start: booking.starts_at.toISOString(),
          end: booking.ends_at.toISOString(),
          invitee_name: booking.invitee_name,
        },
      ];
    });
  }
  // The engine names a calendar by the feed's name: every feed of the workspace so named is listed.
  if (reason.feeds) {
    const names = new Set(reason.feeds);
    described.calendars = parts.feeds
      .filter((feed) => names.has(feed.name))
      .map((feed) => ({ calendar_feed_id: feed.id, name: feed.name }));
  }
  return described;
}

/** Every booking id any verdict names, once. */
export function namedBookingIds(verdicts: readonly SlotVerdict[]): string[] {
  const ids = new Set<string>();
  for (const verdict of verdicts) for (const reason of verdict.reasons) for (const id of reason.bookingIds ?? []) ids.add(id);
  return [...ids];
}
