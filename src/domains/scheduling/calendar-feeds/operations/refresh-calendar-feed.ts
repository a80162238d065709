/**
 * refresh_calendar_feed: makes the feed's queued fetch due now (queuing one if none is), and answers
 * at once; the worker fetches it. Changes only the jobs table.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { feedFetchStates, queueFeedFetch } from '../calendar-feed-jobs.ts';
import { findFeed, toCalendarFeed } from '../calendar-feeds.queries.ts';
import { CalendarFeed, CalendarFeedId } from '../calendar-feeds.schemas.ts';

export const refreshCalendarFeed = defineOperation({
  name: 'refresh_calendar_feed',
  summary: 'Fetch a busy calendar now',
  description:
    'Queues a fetch of the feed now instead of at its next 15-minute refresh, e.g. after changing the calendar. ' +
    'Answers at once; list_calendar_feeds shows the outcome.',
  method: 'POST',
  path: '/scheduling/calendars/{calendar_feed_id}/refresh',
  group: 'Scheduling',
  scope: 'workspace:manage',
  write: true,
  entitlement: 'scheduling',
  errors: ['not_found', 'plan_limit'],
  input: Type.Object({ calendar_feed_id: CalendarFeedId }, { additionalProperties: false }),
  output: CalendarFeed,
  example: { calendar_feed_id: '6b1f3c2a-9d4e-4f7a-8c2b-1e5d7a9f0c34' },
  async handler(ctx, input) {
    const row = await findFeed(ctx.db, ctx.workspaceId, input.calendar_feed_id);
    await queueFeedFetch(ctx.db, ctx.workspaceId, row.id, ctx.now, ctx.now);
    const state = (await feedFetchStates(ctx.db, ctx.workspaceId, [row.id])).get(row.id);
    return toCalendarFeed(row, state ?? { nextFetchAt: null, fetching: false });
  },
});
