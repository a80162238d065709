/**
 * What `booking.*` events carry: the booking as it is after the change (create_booking, the booking
 * page, cancel_booking, the invitee's cancel link, reschedule_booking). The invitee's contact fields
 * are personal data, masked while the workspace masks.
 */
import { Type } from 'typebox';
import type { EventDefinition } from '../../core/event-definition.ts';
import { PersonalString } from '../../core/pii.ts';
import { Id, Nullable, StringEnum, Timestamp } from '../../core/schemas.ts';

const BookingId = Id('The booking id.');

export const BookingSnapshot = Type.Object(
  {
    booking_id: BookingId,
    event_type_id: Id('The kind of call booked.'),
    status: StringEnum(['confirmed', 'canceled']),
    start: Timestamp('When the call starts.'),
    end: Timestamp('When the call ends.'),
    invitee_email: Nullable(
      PersonalString('email', { description: 'Who booked; null once they were erased (the call stays, anonymous).' }),
    ),
    invitee_name: Nullable(PersonalString('name')),
    invitee_phone: Nullable(PersonalString('phone')),
    invitee_timezone: Nullable(Type.String({ description: 'The invitee’s IANA time zone.' })),
    lead_id: Nullable(Id('The lead the booking captured or enriched.')),
    video_id: Nullable(Id('The video the call was booked from.')),
    created_at: Timestamp('When the booking was made.'),
    canceled_at: Nullable(Timestamp('When it was canceled.')),
  },
  { additionalProperties: false },
);

export const BookingCreated = Type.Object({ booking_id: BookingId, booking: BookingSnapshot }, { additionalProperties: false });

export const BookingCanceled = Type.Object({ booking_id: BookingId, booking: BookingSnapshot }, { additionalProperties: false });

/** A call moved to another time; the id stays. `previous_start`/`previous_end`: where it was. */
export const BookingRescheduled = Type.Object(
  {
    booking_id: BookingId,
    previous_start: Timestamp('When the call started before the move.'),
    previous_end: Timestamp('When the call ended before the move.'),
    booking: BookingSnapshot,
  },
  { additionalProperties: false },
);

/** The booking event types this area emits, assembled with every other area's by src/event-catalog.ts. */
export const bookingEvents = {
  'booking.created': {
    summary: 'A call was booked',
    when: 'create_booking or the public booking page booked a call.',
    data: BookingCreated,
  },
  'booking.canceled': {
    summary: 'A booked call was canceled',
    when: 'cancel_booking, or the invitee through the cancel link, canceled a booked call.',
    data: BookingCanceled,
  },
  'booking.rescheduled': {
    summary: 'A booked call was moved',
    when: 'reschedule_booking moved a call to another time; the booking id stays, `previous_start` and `previous_end` say where it was.',
    data: BookingRescheduled,
  },
} as const satisfies Record<string, EventDefinition>;
