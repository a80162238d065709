/**
 * Event types as the API takes and shows them: the input fields create_event_type and
 * update_event_type share, and `EventType`, the answer of every event type operation (and of any
 * other that shows one). Weekly hours are keyed by weekday name here (`monday`); the table keys them
 * by ISO number ("1"), as the slot engine reads them (event-type-fields.ts converts).
 */
import { Type } from 'typebox';
import { Currency, Id, Nullable, ResourceId, ShownText, Timestamp, TimeZone, Trimmed } from '../../../core/schemas.ts';
import { MAX_AMOUNT } from '../../outcomes/index.ts';
import { RULE_BOUNDS } from '../availability/scheduling-rules.ts';

export const WEEKDAY_KEYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekdayKey = (typeof WEEKDAY_KEYS)[number];

export const EVENT_TYPE_LIMITS = { name: 100, location: 500 } as const;
/** How far ahead a new event type offers slots unless told: two months, a common booking window. */
export const DEFAULT_HORIZON_DAYS = 60;

export const EventTypeId = ResourceId('event_type', 'The event type, as list_event_types returns it.');

/** One open stretch of a day. The times are checked with the other problems (rules-problems.ts), so the schema stays light. */
const HoursInterval = Type.Object(
  { start: Type.String({ maxLength: 5 }), end: Type.String({ maxLength: 5 }) },
  { additionalProperties: false },
);
const HoursList = Type.Array(HoursInterval, {
  maxItems: RULE_BOUNDS.intervalsPerDay.max,
  description: '[{start, end}] in "HH:MM" (end may be "24:00"); empty: closed.',
});

/**
 * Keyed by weekday name; a weekday left out is closed. One schema for every weekday's list, under
 * `propertyNames`, so MCP clients read it once rather than seven times.
 */
const WeeklyHours = Type.Unsafe<Partial<Record<WeekdayKey, { start: string; end: string }[]>>>({
  type: 'object',
  propertyNames: { enum: [...WEEKDAY_KEYS] },
  additionalProperties: HoursList,
  description: 'Open hours by weekday (monday…sunday) in time_zone; a weekday left out is closed.',
});

const DateOverrides = Type.Array(
  Type.Object({ date: Type.String({ format: 'date' }), hours: HoursList }, { additionalProperties: false }),
  { maxItems: RULE_BOUNDS.dateOverrides.max, description: 'Days whose hours replace the weekly ones ("YYYY-MM-DD"); empty hours: closed.' },
);

const Value = Type.Object(
  {
    amount: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: 'Minor units (4900 = 49.00).' }),
    currency: Currency('ISO 4217, such as USD.'),
  },
  { additionalProperties: false },
);

const minutes = (bounds: { min: number; max: number }, description: string) =>
  Type.Integer({ minimum: bounds.min, maximum: bounds.max, description });

/** The fields a writer names an event type and its length with: create_event_type requires them. */
// Stored trimmed (docs/scheduling.md), so trimmed before it is judged.
export const EventTypeName = Trimmed(ShownText('Unique among active event types, case aside.', EVENT_TYPE_LIMITS.name));
export const EventTypeDuration = minutes(RULE_BOUNDS.durationMinutes, 'Length of the call.');

/** The other fields a writer sets; every one optional in both writes. */
export const OptionalEventTypeFields = {
  slot_interval_minutes: Type.Optional(minutes(RULE_BOUNDS.slotIntervalMinutes, 'Slots start this often from midnight; default duration.')),
  buffer_before_minutes: Type.Optional(minutes(RULE_BOUNDS.bufferMinutes, 'Kept free before each call; default 0.')),
  buffer_after_minutes: Type.Optional(minutes(RULE_BOUNDS.bufferMinutes, 'Kept free after each call; default 0.')),
  minimum_notice_minutes: Type.Optional(minutes(RULE_BOUNDS.minimumNoticeMinutes, 'A slot starts at least this long from now; default 0.')),
  horizon_days: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: RULE_BOUNDS.horizonDays.min,
        maximum: RULE_BOUNDS.horizonDays.max,
        description: `Bookable up to today + this many days; null: no limit. Default ${DEFAULT_HORIZON_DAYS}.`,
      }),
    ),
  ),
  daily_cap: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: RULE_BOUNDS.dailyCap.min,
        maximum: RULE_BOUNDS.dailyCap.max,
        description: 'Bookings a day at most; null: none.',
      }),
    ),
  ),
  value: Type.Optional(Nullable(Value)),
  location: Type.Optional(Nullable(ShownText('An address, phone number or meeting link.', EVENT_TYPE_LIMITS.location))),
  time_zone: Type.Optional(TimeZone('IANA zone of the hours; default the workspace’s.')),
  weekly_hours: Type.Optional(WeeklyHours),
  date_overrides: Type.Optional(DateOverrides),
  active: Type.Optional(Type.Boolean({ description: 'false: no slots offered, nothing bookable.' })),
};

const ShownHours = Type.Array(Type.Object({ start: Type.String(), end: Type.String() }, { additionalProperties: false }));

export const EventType = Type.Object(
  {
    event_type_id: Id('The event type.'),
    name: Type.String(),
    duration_minutes: Type.Integer(),
    slot_interval_minutes: Type.Integer(),
    buffer_before_minutes: Type.Integer(),
    buffer_after_minutes: Type.Integer(),
    minimum_notice_minutes: Type.Integer(),
    horizon_days: Nullable(Type.Integer()),
    daily_cap: Nullable(Type.Integer()),
    value: Nullable(Type.Object({ amount: Type.Integer(), currency: Type.String() }, { additionalProperties: false })),
    location: Nullable(Type.String()),
    time_zone: Type.String({ description: 'IANA zone of the hours and overrides.' }),
    weekly_hours: Type.Object(Object.fromEntries(WEEKDAY_KEYS.map((day) => [day, ShownHours])) as Record<WeekdayKey, typeof ShownHours>, {
      additionalProperties: false,
      description: 'Every weekday, monday first; [] is closed.',
    }),
    date_overrides: Type.Array(Type.Object({ date: Type.String(), hours: ShownHours }, { additionalProperties: false }), {
      description: 'By date.',
    }),
    active: Type.Boolean(),
    booking_url: Type.String({ description: 'The public booking page.' }),
    created_at: Timestamp('When it was created.'),
    updated_at: Timestamp('When it last changed.'),
  },
  { additionalProperties: false },
);
