/**
 * The writes of a booking and what they hold first. Every booking write (create, reschedule, cancel)
 * starts with `lockWorkspaceBookings`: booking writes of one workspace then run one at a time, so the
 * slot each one judges free is still free when it writes (migration 0018's serialized check).
 */

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import { findInWorkspace } from '../../../core/find-in-workspace.ts';
import type { BookingRow, Database, EventTypeRow } from '../../../db/tables/index.ts';
import { lockWorkspace } from '../../workspace/index.ts';

/**
 * Locks the workspace's row until the transaction ends. `for no key update` conflicts only with
 * itself and stronger locks: foreign-key checks (which take `for key share`) of every other write
 * in the workspace go on unhindered.
 */
export async function lockWorkspaceBookings(db: Kysely<Database>, workspaceId: string): Promise<void> {
  await lockWorkspace(db, workspaceId);
}

/** The event type, or not_found; an inactive one is `409 conflict`: it offers no slots. */
export async function bookableEventType(db: Kysely<Database>, workspaceId: string, eventTypeId: string): Promise<EventTypeRow> {
  const row = await findInWorkspace(db, 'event_types', { workspaceId, id: eventTypeId }, (q) => q.selectAll());
  if (!row.active) {
    throw new AppError(
      'conflict',
      `The event type ${row.name} is inactive: it offers no slots. Activate it with update_event_type first.`,
      {
        reason: 'event_type_inactive',
        event_type_id: row.id,
      },
    );
  }
  return row;
}

/** The booking's row locked until the transaction ends, or not_found. */
export async function lockBooking(db: Kysely<Database>, workspaceId: string, bookingId: string): Promise<BookingRow> {
  return findInWorkspace(db, 'bookings', { workspaceId, id: bookingId }, (q) => q.selectAll().forUpdate());
}

export interface NewBooking {
  workspaceId: string;
  eventType: EventTypeRow;
  start: Date;
  invitee: { email: string; name: string | null; phone: string | null; timezone: string };
  videoId: string | null;
  routeId: string | null;
  cancelTokenHash: string;
  now: Date;
}

/**
 * Inserts the confirmed booking; undefined when a confirmed booking of the workspace already starts
 * then (the partial unique index decides, without aborting the transaction, so the caller can still
 * answer with the reasons and the next slots).
 */
export async function insertBooking(db: Kysely<Database>, booking: NewBooking): Promise<BookingRow | undefined> {
  const { eventType, now } = booking;
  return db
    .insertInto('bookings')
    .values({
      id: randomUUID(),
      workspace_id: booking.workspaceId,
      event_type_id: eventType.id,
      status: 'confirmed',
      starts_at: booking.start,
      ends_at: new Date(booking.start.getTime() + eventType.duration_minutes * 60_000),
      buffer_before_minutes: eventType.buffer_before_minutes,
      buffer_after_minutes: eventType.buffer_after_minutes,
      invitee_email: booking.invitee.email,
      invitee_name: booking.invitee.name,
      invitee_phone: booking.invitee.phone,
      invitee_timezone: booking.invitee.timezone,
      lead_id: null,
      outcome_id: null,
      video_id: booking.videoId,
      route_id: booking.routeId,
      cancel_token_hash: booking.cancelTokenHash,
      canceled_at: null,
      canceled_by: null,
      cancel_reason: null,
      rescheduled_at: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.columns(['workspace_id', 'starts_at']).where('status', '=', 'confirmed').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function setBookingLinks(
  db: Kysely<Database>,
  bookingId: string,
  links: { leadId: string; outcomeId: string },
): Promise<BookingRow> {
  return db
    .updateTable('bookings')
    .set({ lead_id: links.leadId, outcome_id: links.outcomeId })
    .where('id', '=', bookingId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
