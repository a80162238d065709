/** A booking as `booking.*` events carry it (unmasked: webhook payloads are masked from the schema's markers). */
import type { Static } from 'typebox';
import type { BookingRow } from '../../../db/tables/index.ts';
import type { BookingSnapshot } from '../scheduling.events.ts';

export function bookingSnapshot(row: BookingRow): Static<typeof BookingSnapshot> {
  return {
    booking_id: row.id,
    event_type_id: row.event_type_id,
    status: row.status,
    start: row.starts_at.toISOString(),
    end: row.ends_at.toISOString(),
    invitee_email: row.invitee_email,
    invitee_name: row.invitee_name,
    invitee_phone: row.invitee_phone,
    invitee_timezone: row.invitee_timezone,
    lead_id: row.lead_id,
    video_id: row.video_id,
    created_at: row.created_at.toISOString(),
    canceled_at: row.canceled_at?.toISOString() ?? null,
  };
}
