/**
 * create_booking: books an offered start of an event type for an invitee (bookSlot): writes the
 * booking, the invitee's lead (created or enriched, source booking) and a booked_call ledger entry;
 * emits booking.created, outcome.created and lead.created / lead.updated. A start not offered is 409.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { Email, PersonName, Phone, ResourceId, Timestamp, TimeZone } from '../../../../core/schemas.ts';
import { bookSlot } from '../book-slot.ts';
import { bookingDetail } from '../bookings.queries.ts';
import { CreatedBooking } from '../bookings.schemas.ts';

export const createBooking = defineOperation({
  name: 'create_booking',
  summary: 'Book a call and capture the lead',
  description:
    'Books start (an offered slot: get_scheduling_availability) of an event type for an invitee. Captures or enriches ' +
    'the lead by email and records a booked_call outcome. Not offered: 409 with details.reasons and details.next_slots. ' +
    'Answers times in UTC and in invitee_timezone, and the invitee’s calendar file and cancel links (shown only here).',
  method: 'POST',
  path: '/bookings',
  group: 'Scheduling',
  scope: 'leads:write',
  entitlement: 'scheduling',
  write: true,
  status: 201,
  errors: ['not_found', 'conflict'],
  input: Type.Object(
    {
      event_type_id: ResourceId('event_type', 'The kind of call to book.'),
      start: Timestamp('The slot’s start, as availability lists it (any offset).'),
      invitee_email: Email('Who is booking; the lead is found or created by it.'),
      invitee_name: Type.Optional(PersonName('The invitee’s name.', 200)),
      invitee_phone: Type.Optional(Phone('The invitee’s phone.')),
      invitee_timezone: Type.Optional(TimeZone('The invitee’s IANA zone, for invitee_start/end; default the event type’s.')),
    },
    { additionalProperties: false },
  ),
  output: CreatedBooking,
  example: {
    event_type_id: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
    start: '2026-12-01T09:00:00Z',
    invitee_email: 'ada@example.com',
    invitee_name: 'Ada Lovelace',
    invitee_timezone: 'Europe/Berlin',
  },
  async handler(ctx, input) {
    const { booking, secret } = await bookSlot(ctx.db, {
      workspaceId: ctx.workspaceId,
      eventTypeId: input.event_type_id,
      start: new Date(input.start),
      invitee: {
        email: input.invitee_email,
        name: input.invitee_name ?? null,
        phone: input.invitee_phone ?? null,
        timezone: input.invitee_timezone ?? null,
      },
      now: ctx.now,
      author: ctx.principal.name,
    });
    return {
      ...(await bookingDetail(ctx.db, ctx.workspaceId, booking.id)),
      calendar_file_url: ctx.links.bookingCalendarFileUrl(booking.id, secret),
      cancel_url: ctx.links.bookingCancelUrl(booking.id, secret),
    };
  },
});
