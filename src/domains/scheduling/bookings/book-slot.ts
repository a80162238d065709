/**
 * bookSlot: books one start of an event type, the one way a booking is made (create_booking and the
 * public booking page). In the caller's transaction, in this order:
 * 1. the workspace's booking writes are serialized (lockWorkspaceBookings), the event type is read
 *    (unknown: not_found; inactive: 409), the video and route it came from checked (not the
 *    workspace's: 400 naming the field, booking-sources.queries.ts) and the start judged by the
 *    slot engine against every confirmed booking and busy time: not offered is `409 conflict` with
 *    the reasons and the next offered slots (slot-conflict.ts);
 * 2. the booking is inserted, confirmed, with the event type's buffers and the hash of a new secret
 *    (the partial unique index on confirmed starts is a second guard, answered with the same 409);
 * 3. the invitee's lead is created or enriched by email (source `booking`), the browser linked, a
 *    `booking` step added to its history;
 * 4. a `booked_call` outcome goes into the ledger (recordLedgerEntry, source `booking`) with the
 *    event type's value, or 0 USD when it has none, credited to the video booked from;
 * 5. `booking.created` goes to the outbox (with lead.*, outcome.created as those writes make them).
 */
import type { Kysely } from 'kysely';
import { canonicalTimeZone } from '../../../core/calendar/time-zone.ts';
import { outboxEmitter } from '../../../db/outbox.ts';
import type { BookingRow, Database, EventTypeRow } from '../../../db/tables/index.ts';
import { recordLedgerEntry } from '../../outcomes/index.ts';
import { explainStart } from '../availability/availability.ts';
import { rulesOf } from '../availability/event-type-rules.ts';
import { requireSchedulable } from '../availability/schedulable-instants.ts';
import { nextOfferedSlots, slotNotOffered, TAKEN_AT_ONCE } from '../availability/slot-conflict.ts';
import { loadSlotContext } from '../availability/slot-context.queries.ts';
import { captureBookingLead, recordBookingActivity } from './booking-lead.ts';
import { newBookingSecret } from './booking-secret.ts';
import { bookingSnapshot } from './booking-snapshot.ts';
import { requireBookingSources } from './booking-sources.queries.ts';
import { bookableEventType, insertBooking, lockWorkspaceBookings, setBookingLinks } from './booking-writes.queries.ts';

/** A booked call with no value of its own is recorded at 0 in this currency (the ledger needs one; 0 is 0 in any). */
export const NO_VALUE_CURRENCY = 'USD';

export interface BookSlotRequest {
  workspaceId: string;
  eventTypeId: string;
  start: Date;
  /** `timezone`: an IANA name (validated by the caller); default the event type's zone. */
  invitee: { email: string; name?: string | null; phone?: string | null; timezone?: string | null };
  /** Where it was booked from: ids of the workspace, or 400 naming the field; `viewerId` is the player's browser id. */
  from?: { videoId?: string | null; routeId?: string | null; viewerId?: string | null };
  now: Date;
  /** Who booked, for the lead's history: a credential's name, "booking page". */
  author: string;
}

export interface BookSlotResult {
  booking: BookingRow;
  eventType: EventTypeRow;
  /** The invitee's secret for the calendar file and cancel links: only here, only now (stored hashed). */
  secret: string;
  leadId: string;
  leadCreated: boolean;
  outcomeId: string;
}

/** Must run inside a transaction (the workspace lock is held until it ends). Throws AppError not_found / conflict / invalid_request. */
export async function bookSlot(db: Kysely<Database>, request: BookSlotRequest): Promise<BookSlotResult> {
  const { workspaceId, start, now } = request;
  requireSchedulable({ start });
  const emit = outboxEmitter(db, workspaceId, now);
  await lockWorkspaceBookings(db, workspaceId);
  const eventType = await bookableEventType(db, workspaceId, request.eventTypeId);
  const sources = await requireBookingSources(db, workspaceId, request.from ?? {});
  const rules = rulesOf(eventType);
  const inviteeZone = (request.invitee.timezone && canonicalTimeZone(request.invitee.timezone)) || eventType.time_zone;
  const refuse = async (reasons: Parameters<typeof slotNotOffered>[1]) => {
    const next = await nextOfferedSlots(db, rules, { workspaceId, eventTypeId: eventType.id, after: start, now });
    return slotNotOffered(start, reasons, next, inviteeZone);
  };

  const context = await loadSlotContext(db, { workspaceId, eventTypeId: eventType.id, from: start, to: start, now });
  const verdict = explainStart(rules, start, context);
  if (!verdict.offered) throw await refuse(verdict.reasons);

  const { secret, hash } = newBookingSecret();
  const invitee = {
    email: request.invitee.email.trim(),
    name: request.invitee.name?.trim() || null,
    phone: request.invitee.phone?.trim() || null,
    timezone: inviteeZone,
  };
  const inserted = await insertBooking(db, { workspaceId, eventType, start, invitee, ...sources, cancelTokenHash: hash, now });
  if (!inserted) throw await refuse([TAKEN_AT_ONCE]);

  const lead = await captureBookingLead(
    db,
    { workspaceId, invitee, viewerId: request.from?.viewerId ?? null, videoId: sources.videoId, author: request.author, at: now },
    emit,
  );
  await recordBookingActivity(db, {
    workspaceId,
    leadId: lead.leadId,
    videoId: sources.videoId,
    action: 'booked',
    booking: inserted,
    eventTypeName: eventType.name,
    at: now,
  });
  const { outcome } = await recordLedgerEntry(
    db,
    {
      workspaceId,
      kind: 'booked_call',
      status: 'succeeded',
      amount: eventType.value_amount ?? 0,
      currency: eventType.value_currency ?? NO_VALUE_CURRENCY,
      lead: { leadId: lead.leadId },
      videoId: sources.videoId,
      refundsOutcomeId: null,
      externalId: null,
      source: 'booking',
      description: `${eventType.name} at ${start.toISOString()}`.slice(0, 500),
      occurredAt: now,
      author: request.author,
      now,
    },
    emit,
  );
  const booking = await setBookingLinks(db, inserted.id, { leadId: lead.leadId, outcomeId: outcome.outcome_id });
  await emit('booking.created', { booking_id: booking.id, booking: bookingSnapshot(booking) });
  return { booking, eventType, secret, leadId: lead.leadId, leadCreated: lead.created, outcomeId: outcome.outcome_id };
}
