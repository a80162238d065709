/**
 * What `booking.*` events carry. Scheduling has no operations yet; the schemas are fixed now. The
 * invitee's contact fields are personal data, masked while the workspace masks.
 */
import { Type } from 'typebox';
import { PersonalString } from '../core/pii.ts';
import { Id, Nullable, StringEnum, Timestamp } from '../core/schemas.ts';

const BookingId = Id('The booking id.');

export const BookingSnapshot = Type.Object(
  {
    booking_id: BookingId,
    event_type_id: Id('The kind of call booked.'),
    status: StringEnum(['confirmed', 'canceled']),
    start: Timestamp('When the call starts.'),
    end: Timestamp('When the call ends.'),
    invitee_email: PersonalString('email'),
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
