/** list_calendar_feeds: the workspace's calendar feeds, newest first, with how their fetches went. Reads only. */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../../core/lists/pagination.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { feedsAsShown, listFeedRows } from '../calendar-feeds.queries.ts';
import { CalendarFeed } from '../calendar-feeds.schemas.ts';

export const listCalendarFeeds = defineOperation({
  name: 'list_calendar_feeds',
  summary: 'List busy calendars',
  description:
    'Lists the ICS feeds whose events block slots, newest first: when each was last fetched, the last error (its ' +
    'earlier busy times still apply), how many busy times it holds and when it is fetched next.',
  method: 'GET',
  path: '/scheduling/calendars',
  group: 'Scheduling',
  scope: 'workspace:read',
  write: false,
  entitlement: 'scheduling',
  errors: ['plan_limit'],
  input: Type.Object({ ...PaginationInput }, { additionalProperties: false }),
  output: ListOutput('calendar_feeds', CalendarFeed),
  example: { limit: 10 },
  async handler(ctx, input) {
    const page = await paginate(ctx.cursors, input, {}, (request) => listFeedRows(ctx.db, ctx.workspaceId, request));
    return { calendar_feeds: await feedsAsShown(ctx.db, ctx.workspaceId, page.items), pagination: page.pagination };
  },
});
