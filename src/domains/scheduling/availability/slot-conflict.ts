/**
 * The 409 a booking write answers when its start is not offered: every reason the slot engine gives
 * (the same codes and sentences as get_scheduling_availability; a booking in the way is named by id
 * and times, never by its invitee) and the next offered slots, so the caller can pick one at once.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import type { Database } from '../../../db/tables/index.ts';
import { slotsInWindow } from './availability.ts';
import { MAX_WINDOW_DAYS, type SchedulingRules, type SlotContext } from './scheduling-rules.ts';
import { loadSlotContext } from './slot-context.queries.ts';
import type { SlotReason, SlotVerdict } from './slot-reasons.ts';
import { zonedIso } from './zoned-time.ts';

const DAY_MS = 86_400_000;
/** How many offered slots a refusal suggests. */
export const NEXT_SLOTS = 3;

export interface SlotSearch {
  workspaceId: string;
  eventTypeId: string;
  /** Slots starting at or after this instant (or `now`, when later). */
  after: Date;
  now: Date;
  /** A booking whose own time does not block (the one being rescheduled). */
  exceptBookingId?: string | undefined;
}

/** The context a slot is judged in, without the booking being moved: its current time is not in its own way. */
export function withoutBooking(context: SlotContext, bookingId: string | undefined): SlotContext {
  if (!bookingId) return context;
  return { ...context, bookings: context.bookings.filter((booking) => booking.id !== bookingId) };
}

/** The first NEXT_SLOTS offered slots within MAX_WINDOW_DAYS of the search's start, earliest first. */
export async function nextOfferedSlots(db: Kysely<Database>, rules: SchedulingRules, search: SlotSearch): Promise<SlotVerdict[]> {
  const from = new Date(Math.max(search.after.getTime(), search.now.getTime()));
  const to = new Date(from.getTime() + MAX_WINDOW_DAYS * DAY_MS);
  const context = await loadSlotContext(db, {
    workspaceId: search.workspaceId,
    eventTypeId: search.eventTypeId,
    from,
    to,
    now: search.now,
  });
  const slots = slotsInWindow(rules, { ...withoutBooking(context, search.exceptBookingId), from, to });
  return slots.filter((slot) => slot.offered).slice(0, NEXT_SLOTS);
}

function reasonDetail(reason: SlotReason) {
  return {
    code: reason.code,
    message: reason.message,
    ...(reason.bookingIds ? { booking_ids: reason.bookingIds } : {}),
    ...(reason.feeds ? { feeds: reason.feeds } : {}),
  };
}

/**
 * `409 conflict`, details `{reason: 'slot_not_offered', start, reasons, next_slots}`; each next slot
 * has its UTC `start` and `end` and `invitee_start` in the invitee's zone.
 */
export function slotNotOffered(start: Date, reasons: SlotReason[], next: SlotVerdict[], inviteeTimeZone: string): AppError {
  const nextText =
    next.length === 0
      ? `No slot is offered in the ${MAX_WINDOW_DAYS} days after it.`
      : `The next offered: ${next.map((slot) => slot.start.toISOString()).join(', ')}.`;
  return new AppError(
    'conflict',
    `The slot starting ${start.toISOString()} is not offered. ${reasons.map((r) => r.message).join(' ')} ${nextText}`,
    {
      reason: 'slot_not_offered',
      start: start.toISOString(),
      reasons: reasons.map(reasonDetail),
      next_slots: next.map((slot) => ({
        start: slot.start.toISOString(),
        end: slot.end.toISOString(),
        invitee_start: zonedIso(slot.start, inviteeTimeZone),
      })),
    },
  );
}

/** A write that lost to another one at the very same start after judging it free (the unique index's guard). */
export const TAKEN_AT_ONCE: SlotReason = {
  code: 'booked',
  message: 'Another booking took this start at the same moment.',
};
