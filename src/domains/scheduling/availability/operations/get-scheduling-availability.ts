/**
 * get_scheduling_availability: which slots an event type offers in a window and, for every other
 * candidate start, why not; or the verdict on one exact start. Reads only: the event type, the
 * workspace's bookings and calendar busy times around the window, the bookings it names.
 */
import { Type } from 'typebox';
import { canonicalTimeZone } from '../../../../core/calendar/time-zone.ts';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { NOT_BLANK, ResourceReference, StringEnum, Timestamp, TimeZone, Trimmed } from '../../../../core/schemas.ts';
import { resolveEventType } from '../../event-types/event-type-reference.ts';
import { Availability } from '../availability.schemas.ts';
import { explainStart, slotsInWindow } from '../availability.ts';
import { availabilityAnswer, namedBookingIds } from '../availability-answer.ts';
import { availabilitySpan } from '../availability-window.ts';
import { blockingBookings, calendarFeedStates } from '../blocking-details.queries.ts';
import { rulesOf } from '../event-type-rules.ts';
import { loadSlotContext } from '../slot-context.queries.ts';
import { ZonedTimes } from '../zoned-time.ts';

export const getSchedulingAvailability = defineOperation({
  name: 'get_scheduling_availability',
  summary: 'Offered slots, and why every other start is not offered',
  description:
    'For an event type (id or exact name): the slots offered in a window (default the next 7 days, at most 31) and every ' +
    'other candidate start with its reasons (past, min_notice, beyond_horizon, outside_hours, date_override, booked, ' +
    'buffer, daily_cap, busy_calendar, inactive) in sentences. With start: the verdict on that one instant.',
  method: 'GET',
  path: '/scheduling/availability',
  group: 'Scheduling',
  scope: 'workspace:read',
  entitlement: 'scheduling',
  write: false,
  errors: ['not_found'],
  input: Type.Object(
    {
      // Looked up trimmed (docs/scheduling.md), so trimmed before it is judged.
      event_type: Trimmed(
        ResourceReference('event_type', { minLength: 1, maxLength: 200, ...NOT_BLANK, description: 'The event type’s id or exact name.' }),
      ),
      from: Type.Optional(Timestamp('Window start. Default: now.')),
      to: Type.Optional(Timestamp('Window end (exclusive). Default: from + 7 days; at most 31 days after from.')),
      start: Type.Optional(Timestamp('One exact start to explain, instead of a window.')),
      timezone: Type.Optional(TimeZone('Zone of the local_* times. Default: the event type’s.')),
      include: Type.Optional(
        StringEnum(['all', 'offered'], { default: 'all', description: 'all (default), or offered: leave not_offered empty.' }),
      ),
    },
    { additionalProperties: false },
  ),
  // Problems the schema cannot see, named with the schema's: the event type, and a window whose ends are real but wrong.
  databaseProblems: async (db, workspaceId, raw) => {
    const input = (raw ?? {}) as Record<string, unknown>;
    // Only a well-formed reference is looked up (a NUL character is the schema's problem, and the database refuses it).
    const reference = input.event_type;
    const usable = typeof reference === 'string' && reference.trim() !== '' && reference.length <= 200 && !reference.includes('\u0000');
    const eventType = usable ? (await resolveEventType(db, workspaceId, reference)).problems : [];
    // Without `from`, the window starts at the handler's now: the handler judges it.
    const window = input.from === undefined && input.start === undefined ? [] : availabilitySpan(input, new Date()).problems;
    return [...eventType, ...window];
  },
  output: Availability,
  example: { event_type: 'Intro call', from: '2027-03-15T00:00:00Z', to: '2027-03-22T00:00:00Z', timezone: 'Europe/Berlin' },
  async handler(ctx, input) {
    const { span, problems } = availabilitySpan(input, ctx.now);
    const resolved = await resolveEventType(ctx.db, ctx.workspaceId, input.event_type);
    if (!resolved.eventType || !span) throw AppError.refusing([...resolved.problems, ...problems]);
    const eventType = resolved.eventType;
    const rules = rulesOf(eventType);
    const about = span.kind === 'start' ? { from: span.start, to: span.start } : span;
    const context = await loadSlotContext(ctx.db, { workspaceId: ctx.workspaceId, eventTypeId: eventType.id, ...about, now: ctx.now });
    const asked = span.kind === 'start' ? explainStart(rules, span.start, context) : undefined;
    const verdicts = asked ? [asked] : slotsInWindow(rules, { ...context, from: about.from, to: about.to });
    const window = asked ? { from: asked.start, to: asked.end } : about;
    const needsFeeds = verdicts.some((verdict) => verdict.reasons.some((reason) => reason.code === 'busy_calendar'));
    const [bookings, feeds] = await Promise.all([
      blockingBookings(ctx.db, ctx.workspaceId, namedBookingIds(verdicts)),
      needsFeeds ? calendarFeedStates(ctx.db, ctx.workspaceId) : [],
    ]);
    const timeZone = (input.timezone && canonicalTimeZone(input.timezone)) ?? eventType.time_zone;
    return availabilityAnswer({
      eventType,
      bookingUrl: ctx.links.bookingPageUrl(eventType.id),
      now: ctx.now,
      window,
      verdicts,
      asked,
      includeNotOffered: input.include !== 'offered',
      times: new ZonedTimes(timeZone, window.from, window.to),
      bookings,
      feeds,
    });
  },
});
