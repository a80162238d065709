/**
 * get_scheduling_overview: the calendar's shape at a glance, per event type (next offered slot,
 * slots offered and booked in the next 7 and 28 days, utilization, busiest weekdays and hours,
 * configuration problems) and the workspace's calendar feeds. Reads only; one slot-engine pass over
 * the next 28 days per active event type.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { slotsInWindow } from '../availability.ts';
import { calendarFeedStates } from '../blocking-details.queries.ts';
import { BUSIEST_PAST_DAYS, eventTypeOverview, OVERVIEW_DAYS } from '../event-type-overview.ts';
import { rulesOf } from '../event-type-rules.ts';
import { bookingStartsByType, overviewEventTypes } from '../overview.queries.ts';
import { SchedulingOverview } from '../overview.schemas.ts';
import { loadSlotContext } from '../slot-context.queries.ts';
import { ZonedTimes } from '../zoned-time.ts';

const DAY_MS = 86_400_000;

export const getSchedulingOverview = defineOperation({
  name: 'get_scheduling_overview',
  summary: 'The calendar at a glance: slots, bookings, problems',
  description:
    'Per event type: the next offered slot, slots offered and booked in the next 7 and 28 days, utilization, the busiest ' +
    'weekdays and hours, and problems (inactive, no_hours, fully_blocked, calendar_failing); and the calendar feeds with ' +
    'their last fetch. get_scheduling_availability explains single slots.',
  method: 'GET',
  path: '/scheduling/overview',
  group: 'Scheduling',
  scope: 'workspace:read',
  entitlement: 'scheduling',
  write: false,
  errors: [],
  input: Type.Object({}, { additionalProperties: false }),
  output: SchedulingOverview,
  example: {},
  async handler(ctx) {
    const now = ctx.now;
    const to = new Date(now.getTime() + OVERVIEW_DAYS * DAY_MS);
    const since = new Date(now.getTime() - BUSIEST_PAST_DAYS * DAY_MS);
    const [eventTypes, bookingStarts, feeds] = await Promise.all([
      overviewEventTypes(ctx.db, ctx.workspaceId),
      bookingStartsByType(ctx.db, ctx.workspaceId, since, to),
      calendarFeedStates(ctx.db, ctx.workspaceId),
    ]);
    // Event types mostly share a zone: its offsets over the span are read once.
    const zones = new Map<string, ZonedTimes>();
    const timesIn = (zone: string) => {
      const times = zones.get(zone) ?? new ZonedTimes(zone, since, to);
      zones.set(zone, times);
      return times;
    };
    const lines = await Promise.all(
      eventTypes.rows.map(async (eventType) => {
        const context = eventType.active
          ? await loadSlotContext(ctx.db, { workspaceId: ctx.workspaceId, eventTypeId: eventType.id, from: now, to, now })
          : undefined;
        return eventTypeOverview({
          eventType,
          bookingUrl: ctx.links.bookingPageUrl(eventType.id),
          now,
          verdicts: context ? slotsInWindow(rulesOf(eventType), { ...context, from: now, to }) : [],
          bookingStarts: bookingStarts.get(eventType.id) ?? [],
          feeds,
          times: timesIn(eventType.time_zone),
        });
      }),
    );
    return {
      now: now.toISOString(),
      active_event_types: eventTypes.active,
      inactive_event_types: eventTypes.inactive,
      event_types: lines,
      calendars: feeds.map((feed) => ({
        calendar_feed_id: feed.id,
        name: feed.name,
        url: feed.url_display,
        last_fetched_at: feed.last_fetched_at?.toISOString() ?? null,
        last_success_at: feed.last_success_at?.toISOString() ?? null,
        last_error: feed.last_error,
        busy_count: feed.busy_count,
      })),
    };
  },
});
