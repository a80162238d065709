/**
 * delete_calendar_feed: removes a feed and its busy times (they stop blocking slots at once) and drops
 * its queued fetch; a fetch already running finds the feed gone and keeps nothing. Cannot be undone.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { dropFeedFetches } from '../calendar-feed-jobs.ts';
import { deleteFeed, toCalendarFeed } from '../calendar-feeds.queries.ts';
import { CalendarFeed, CalendarFeedId } from '../calendar-feeds.schemas.ts';

export const deleteCalendarFeed = defineOperation({
  name: 'delete_calendar_feed',
  summary: 'Remove a busy calendar',
  description: 'Removes a calendar feed and its busy times, which stop blocking slots at once. Cannot be undone.',
  method: 'DELETE',
  path: '/scheduling/calendars/{calendar_feed_id}',
  group: 'Scheduling',
  scope: 'workspace:manage',
  write: true,
  destructive: true,
  entitlement: 'scheduling',
  errors: ['not_found', 'plan_limit'],
  input: Type.Object({ calendar_feed_id: CalendarFeedId }, { additionalProperties: false }),
  output: Type.Object(
    {
      ...CalendarFeed.properties,
      deleted: Type.Literal(true),
      busy_times_deleted: Type.Integer({ minimum: 0, description: 'Busy times removed with it.' }),
    },
    { additionalProperties: false },
  ),
  example: { calendar_feed_id: '6b1f3c2a-9d4e-4f7a-8c2b-1e5d7a9f0c34' },
  async handler(ctx, input) {
    const row = await deleteFeed(ctx.db, ctx.workspaceId, input.calendar_feed_id);
    await dropFeedFetches(ctx.db, ctx.workspaceId, row.id);
    return {
      ...toCalendarFeed(row, { nextFetchAt: null, fetching: false }),
      deleted: true as const,
      busy_times_deleted: row.busy_count,
    };
  },
});
