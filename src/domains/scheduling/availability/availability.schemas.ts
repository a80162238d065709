/**
 * The answer of get_scheduling_availability: the event type, the window, the offered slots one by
 * one, and the candidates not offered in runs with every reason (the sentence, the bookings and the
 * calendars in the way), counted per reason.
 */
import { Type } from 'typebox';
import { PersonalString } from '../../../core/pii.ts';
import { Id, Nullable, StringEnum, Timestamp } from '../../../core/schemas.ts';
import { SLOT_REASON_CODES } from './slot-reasons.ts';

/** The engine's reasons, and `inactive`: an event type switched off offers nothing, whatever else holds. */
export const AVAILABILITY_REASON_CODES = ['inactive', ...SLOT_REASON_CODES] as const;
export type AvailabilityReasonCode = (typeof AVAILABILITY_REASON_CODES)[number];

export const LocalTime = (description: string) =>
  Type.String({ description: `${description} In the display time zone, ISO 8601 with its offset: 2027-03-15T09:00:00-04:00.` });

export const OfferedSlot = Type.Object(
  {
    start: Timestamp('UTC.'),
    end: Timestamp('UTC.'),
    local_start: LocalTime('The start.'),
    local_end: LocalTime('The end.'),
  },
  { additionalProperties: false },
);

const BlockingBooking = Type.Object(
  {
    booking_id: Id('The booking in the way.'),
    event_type: Type.String({ description: 'Its event type’s name.' }),
    start: Timestamp('UTC.'),
    end: Timestamp('UTC.'),
    invitee_name: Nullable(PersonalString('name', { description: 'Masked while the workspace masks personal data.' })),
  },
  { additionalProperties: false },
);

const BlockingCalendar = Type.Object(
  {
    calendar_feed_id: Id('The calendar feed whose busy time overlaps.'),
    name: Type.String(),
  },
  { additionalProperties: false },
);

export const Reason = Type.Object(
  {
    code: StringEnum(AVAILABILITY_REASON_CODES),
    message: Type.String({ description: 'The reason in a sentence.' }),
    bookings: Type.Optional(Type.Array(BlockingBooking, { description: 'booked and buffer: the bookings in the way.' })),
    calendars: Type.Optional(Type.Array(BlockingCalendar, { description: 'busy_calendar: the calendars in the way.' })),
  },
  { additionalProperties: false },
);

const NotOfferedRun = Type.Object(
  {
    start: Timestamp('The run’s first candidate, UTC.'),
    last_start: Timestamp('The run’s last candidate, UTC.'),
    starts: Type.Array(Timestamp('A candidate.'), { description: 'Every candidate of the run, UTC, earliest first.' }),
    local_start: LocalTime('The first candidate.'),
    local_last_start: LocalTime('The last candidate.'),
    count: Type.Integer({ minimum: 1, description: 'Candidates in the run, every one on the slot grid from start to last_start.' }),
    reasons: Type.Array(Reason, { description: 'Every candidate’s of the run; sentences written for the first.' }),
  },
  { additionalProperties: false },
);

const ReasonCounts = Type.Object(
  Object.fromEntries(AVAILABILITY_REASON_CODES.map((code) => [code, Type.Integer({ minimum: 0 })])) as Record<
    AvailabilityReasonCode,
    ReturnType<typeof Type.Integer>
  >,
  {
    additionalProperties: false,
    description: 'Candidates not offered for each reason (a candidate counts once under each of its reasons).',
  },
);

export const Availability = Type.Object(
  {
    event_type: Type.Object(
      {
        event_type_id: Id('The event type.'),
        name: Type.String(),
        active: Type.Boolean({ description: 'false: it offers no slot (reason inactive).' }),
        duration_minutes: Type.Integer(),
        slot_interval_minutes: Type.Integer(),
        time_zone: Type.String({ description: 'Where its hours are read.' }),
        booking_url: Type.String({ description: 'Its public booking page.' }),
      },
      { additionalProperties: false },
    ),
    timezone: Type.String({ description: 'The display time zone of the local_* fields.' }),
    now: Timestamp('The instant past and min_notice are judged from.'),
    window: Type.Object(
      { from: Timestamp('First instant a candidate may start at.'), to: Timestamp('Candidates start before it.') },
      { additionalProperties: false },
    ),
    slot: Nullable(
      Type.Object(
        {
          ...OfferedSlot.properties,
          offered: Type.Boolean(),
          reasons: Type.Array(Reason, { description: 'Empty when offered.' }),
        },
        { additionalProperties: false, description: 'With start: the verdict on that instant. Null otherwise.' },
      ),
    ),
    candidates: Type.Integer({ minimum: 0, description: 'Candidate starts in the window.' }),
    offered_count: Type.Integer({ minimum: 0 }),
    not_offered_count: Type.Integer({ minimum: 0 }),
    reason_counts: ReasonCounts,
    offered: Type.Array(OfferedSlot, { description: 'Every offered slot, earliest first.' }),
    not_offered: Type.Array(NotOfferedRun, {
      description: 'Candidates not offered, earliest first, in runs sharing their reasons (empty with include=offered).',
    }),
  },
  { additionalProperties: false },
);
