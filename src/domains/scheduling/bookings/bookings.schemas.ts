/**
 * A booking as every booking operation answers it: times in UTC and in the invitee's own zone, the
 * invitee's contact fields (personal: masked while the workspace masks), and what the booking wrote
 * elsewhere (its lead, its ledger entry).
 */
import { Type } from 'typebox';
import { PersonalString } from '../../../core/pii.ts';
import { Id, Nullable, ResourceId, StringEnum, Timestamp } from '../../../core/schemas.ts';

export const BookingId = ResourceId('booking', 'The booking, as list_bookings returns it.');

export const BOOKING_STATUSES = ['confirmed', 'canceled'] as const;
export const BookingStatus = StringEnum(BOOKING_STATUSES, { description: 'confirmed, or canceled (kept, never deleted).' });

const BookingEventType = Type.Object(
  {
    event_type_id: Id('The kind of call booked.'),
    name: Type.String(),
    location: Nullable(Type.String({ description: 'Where the call happens: an address, a phone number or a meeting link.' })),
  },
  { additionalProperties: false },
);

const ZonedTime = (description: string) =>
  Type.String({ description: `${description} ISO 8601 in the invitee’s zone, with its offset: 2026-12-01T10:00:00+01:00.` });

export const BookingFields = {
  booking_id: Id('The booking; it stays the same across reschedules.'),
  event_type: BookingEventType,
  status: BookingStatus,
  start: Timestamp('When the call starts (UTC).'),
  end: Timestamp('When the call ends (UTC).'),
  invitee_timezone: Type.String({ description: 'The invitee’s IANA time zone (default: the event type’s).' }),
  invitee_start: ZonedTime('The start'),
  invitee_end: ZonedTime('The end'),
  invitee_email: Nullable(PersonalString('email', { description: 'Who booked; null once they were erased (the call stays, anonymous).' })),
  invitee_name: Nullable(PersonalString('name')),
  invitee_phone: Nullable(PersonalString('phone')),
  lead_id: Nullable(Id('The lead it captured or enriched.')),
  outcome_id: Nullable(Id('Its booked_call entry in the ledger.')),
  value: Nullable(
    Type.Object(
      {
        amount: Type.Integer({ minimum: 0, description: 'Minor units (4900 = 49.00 USD).' }),
        currency: Type.String({ description: 'ISO 4217.' }),
      },
      { additionalProperties: false, description: 'The ledger entry’s value: the event type’s, or 0 USD when it has none.' },
    ),
  ),
  video_id: Nullable(Id('The video it was booked from (the booking page’s).')),
  route_id: Nullable(Id('The route it was booked from.')),
  rescheduled_at: Nullable(Timestamp('When it was last moved.')),
  canceled_at: Nullable(Timestamp('When it was canceled.')),
  canceled_by: Nullable(StringEnum(['workspace', 'invitee'], { description: 'workspace (cancel_booking) or invitee (the cancel link).' })),
  cancel_reason: Nullable(Type.String()),
  created_at: Timestamp('When it was booked.'),
  updated_at: Timestamp('When it last changed.'),
};

export const BookingDetail = Type.Object(BookingFields, { additionalProperties: false });

/** create_booking's answer: the booking and the invitee's two links, which hold its secret and are never shown again. */
export const CreatedBooking = Type.Object(
  {
    ...BookingFields,
    calendar_file_url: Type.String({ description: 'The invitee’s .ics file (holds the booking’s secret; shown only now).' }),
    cancel_url: Type.String({ description: 'The invitee’s cancel page (holds the same secret; shown only now).' }),
  },
  { additionalProperties: false },
);
