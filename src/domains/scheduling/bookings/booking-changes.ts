/**
 * Canceling and moving a booking, the one way each is done (cancel_booking and the invitee's cancel
 * link; reschedule_booking). Both run in the caller's transaction, keep the booking's id, keep its
 * lead and ledger entry right, add a `booking` step to the lead's history, bump the calendar file's
 * SEQUENCE, and emit their event.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import { outboxEmitter } from '../../../db/outbox.ts';
import type { BookingCanceledBy, BookingRow, Database } from '../../../db/tables/index.ts';
import { cancelBookedCall } from '../../outcomes/index.ts';
import { explainStart } from '../availability/availability.ts';
import { rulesOf } from '../availability/event-type-rules.ts';
import { requireSchedulable } from '../availability/schedulable-instants.ts';
import { nextOfferedSlots, slotNotOffered, TAKEN_AT_ONCE, withoutBooking } from '../availability/slot-conflict.ts';
import { loadSlotContext } from '../availability/slot-context.queries.ts';
import { recordBookingActivity } from './booking-lead.ts';
import { bookingSnapshot } from './booking-snapshot.ts';
import { bookableEventType, lockBooking, lockWorkspaceBookings } from './booking-writes.queries.ts';

const MINUTE_MS = 60_000;

export interface CancelRequest {
  workspaceId: string;
  bookingId: string;
  by: BookingCanceledBy;
  reason: string | null;
  now: Date;
}

/**
 * Cancels a confirmed booking: status canceled (the row is kept), its booked_call ledger entry
 * `canceled` (so it no longer counts as a booked call; lead engagement already earned stays), and
 * `booking.canceled`. Already canceled: 409. The invitee may cancel only before the call starts.
 */
export async function cancelBooking(db: Kysely<Database>, request: CancelRequest): Promise<BookingRow> {
  const { workspaceId, now } = request;
  await lockWorkspaceBookings(db, workspaceId);
  const current = await lockBooking(db, workspaceId, request.bookingId);
  if (current.status === 'canceled') {
    throw new AppError('conflict', `This booking was already canceled at ${current.canceled_at?.toISOString()}.`, {
      reason: 'already_canceled',
      canceled_at: current.canceled_at?.toISOString() ?? null,
    });
  }
  if (request.by === 'invitee' && current.starts_at.getTime() <= now.getTime()) {
    throw new AppError('conflict', 'This call has already started, so it can no longer be canceled from the link.', {
      reason: 'already_started',
    });
  }
  const booking = await db
    .updateTable('bookings')
    .set({
      status: 'canceled',
      canceled_at: now,
      canceled_by: request.by,
      cancel_reason: request.reason,
      sequence: current.sequence + 1,
      updated_at: now,
    })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (booking.outcome_id) await cancelBookedCall(db, workspaceId, booking.outcome_id);
  await recordStep(db, booking, 'canceled', { canceled_by: request.by }, now);
  const emit = outboxEmitter(db, workspaceId, now);
  await emit('booking.canceled', { booking_id: booking.id, booking: bookingSnapshot(booking) });
  return booking;
}

export interface RescheduleRequest {
  workspaceId: string;
  bookingId: string;
  start: Date;
  now: Date;
}

/**
 * Moves a confirmed booking to `start`, judged like a new booking (workspace lock, every rule of its
 * event type as it is now, which must be active) except that its own current time does not stand in
 * its way. The id, lead and ledger entry (and its occurred_at) stay; the buffers become the event
 * type's current ones; `booking.rescheduled` carries the old times. The same start again changes nothing.
 */
export async function rescheduleBooking(db: Kysely<Database>, request: RescheduleRequest): Promise<BookingRow> {
  const { workspaceId, start, now } = request;
  requireSchedulable({ start });
  await lockWorkspaceBookings(db, workspaceId);
  const current = await lockBooking(db, workspaceId, request.bookingId);
  if (current.status === 'canceled') {
    throw new AppError('conflict', 'This booking is canceled: book a new call instead.', { reason: 'booking_canceled' });
  }
  if (current.starts_at.getTime() === start.getTime()) return current;
  const eventType = await bookableEventType(db, workspaceId, current.event_type_id);
  const rules = rulesOf(eventType);
  const zone = current.invitee_timezone ?? eventType.time_zone;
  const context = await loadSlotContext(db, { workspaceId, eventTypeId: eventType.id, from: start, to: start, now });
  const verdict = explainStart(rules, start, withoutBooking(context, current.id));
  if (!verdict.offered) {
    const next = await nextOfferedSlots(db, rules, {
      workspaceId,
      eventTypeId: eventType.id,
      after: start,
      now,
      exceptBookingId: current.id,
    });
    throw slotNotOffered(start, verdict.reasons, next, zone);
  }
  let booking: BookingRow;
  try {
    booking = await db
      .updateTable('bookings')
      .set({
        starts_at: start,
        ends_at: new Date(start.getTime() + eventType.duration_minutes * MINUTE_MS),
        buffer_before_minutes: eventType.buffer_before_minutes,
        buffer_after_minutes: eventType.buffer_after_minutes,
        rescheduled_at: now,
        sequence: current.sequence + 1,
        updated_at: now,
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    // The unique index on confirmed starts: unreachable under the workspace lock, answered like a lost slot.
    if ((error as { code?: unknown }).code === '23505') throw slotNotOffered(start, [TAKEN_AT_ONCE], [], zone);
    throw error;
  }
  await recordStep(db, booking, 'rescheduled', { previous_start: current.starts_at.toISOString() }, now, eventType.name);
  const emit = outboxEmitter(db, workspaceId, now);
  await emit('booking.rescheduled', {
    booking_id: booking.id,
    previous_start: current.starts_at.toISOString(),
    previous_end: current.ends_at.toISOString(),
    booking: bookingSnapshot(booking),
  });
  return booking;
}

async function recordStep(
  db: Kysely<Database>,
  booking: BookingRow,
  action: 'canceled' | 'rescheduled',
  facts: Record<string, string>,
  at: Date,
  eventTypeName?: string,
): Promise<void> {
  if (!booking.lead_id) return;
  const name =
    eventTypeName ??
    (await db.selectFrom('event_types').select('name').where('id', '=', booking.event_type_id).executeTakeFirstOrThrow()).name;
  await recordBookingActivity(db, {
    workspaceId: booking.workspace_id,
    leadId: booking.lead_id,
    videoId: booking.video_id,
    action,
    booking,
    eventTypeName: name,
    facts,
    at,
  });
}
