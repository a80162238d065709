/**
 * The answer of get_scheduling_overview: per event type its next offered slot, slots offered and
 * booked ahead, utilization, when its calls fall, and what is wrong with its configuration; and the
 * workspace's calendar feeds with their last fetch.
 */
import { Type } from 'typebox';
import { Id, Nullable, StringEnum, Timestamp } from '../../../core/schemas.ts';

export const OVERVIEW_PROBLEM_CODES = ['inactive', 'no_hours', 'fully_blocked', 'calendar_failing'] as const;
export type OverviewProblemCode = (typeof OVERVIEW_PROBLEM_CODES)[number];
export const WEEKDAY_KEYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const Period = (days: number) =>
  Type.Object(
    {
      offered: Type.Integer({ minimum: 0, description: `Slots offered now in the next ${days} days.` }),
      booked: Type.Integer({ minimum: 0, description: `Confirmed bookings starting in the next ${days} days.` }),
      utilization: Nullable(
        Type.Number({ minimum: 0, maximum: 1, description: 'booked / (booked + offered); null when both are 0 or the type is inactive.' }),
      ),
    },
    { additionalProperties: false },
  );

const EventTypeOverview = Type.Object(
  {
    event_type_id: Id('The event type.'),
    name: Type.String(),
    active: Type.Boolean(),
    time_zone: Type.String({ description: 'Where its hours, weekdays and hours of day are read.' }),
    duration_minutes: Type.Integer(),
    booking_url: Type.String({ description: 'Its public booking page.' }),
    next_offered: Nullable(
      Type.Object(
        {
          start: Timestamp('UTC.'),
          local_start: Type.String({ description: 'In the event type’s zone, ISO 8601 with its offset.' }),
        },
        { additionalProperties: false, description: 'The first slot offered in the next 28 days; null if none.' },
      ),
    ),
    next_7_days: Period(7),
    next_28_days: Period(28),
    busiest_weekdays: Type.Array(
      Type.Object({ weekday: StringEnum(WEEKDAY_KEYS), bookings: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
      { description: 'Up to 3 weekdays with the most bookings (last 90 days and next 28), most first.' },
    ),
    busiest_hours: Type.Array(
      Type.Object(
        {
          hour: Type.Integer({ minimum: 0, maximum: 23, description: 'Local hour a call starts in.' }),
          bookings: Type.Integer({ minimum: 1 }),
        },
        { additionalProperties: false },
      ),
      { description: 'Up to 3 hours of day with the most bookings, most first.' },
    ),
    problems: Type.Array(
      Type.Object(
        {
          code: StringEnum(OVERVIEW_PROBLEM_CODES),
          message: Type.String(),
          calendar_feed_id: Type.Optional(Id('calendar_failing: the feed.')),
        },
        { additionalProperties: false },
      ),
      { description: 'inactive, no_hours, fully_blocked, calendar_failing; empty when none.' },
    ),
  },
  { additionalProperties: false },
);

export const SchedulingOverview = Type.Object(
  {
    now: Timestamp('The instant the numbers are counted from.'),
    active_event_types: Type.Integer({ minimum: 0 }),
    inactive_event_types: Type.Integer({ minimum: 0 }),
    event_types: Type.Array(EventTypeOverview, { description: 'Active first, then by name; at most 50.' }),
    calendars: Type.Array(
      Type.Object(
        {
          calendar_feed_id: Id('The feed.'),
          name: Type.String(),
          url: Type.String({ description: 'Shortened: scheme, host and the first path segment.' }),
          last_fetched_at: Nullable(Timestamp('The last fetch, successful or not.')),
          last_success_at: Nullable(Timestamp('The last successful fetch: its busy times are the ones that block slots.')),
          last_error: Nullable(Type.String({ description: 'Why the last fetch failed; null after a success.' })),
          busy_count: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
