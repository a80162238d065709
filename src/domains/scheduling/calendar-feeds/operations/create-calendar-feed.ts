/**
 * create_calendar_feed: adds an ICS feed whose events block slots. Checks the URL against the SSRF
 * guard, stores it sealed, and queues its first fetch at once (the worker fetches it, then every 15
 * minutes). Writes one calendar_feeds row and one job; no event.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { queueFeedFetch } from '../calendar-feed-jobs.ts';
import { CALENDAR_FEED_URL_PURPOSE, displayedFeedUrl } from '../calendar-feed-url.ts';
import { insertFeed, MAX_FEEDS, toCalendarFeed } from '../calendar-feeds.queries.ts';
import { CalendarFeed, CalendarFeedName, CalendarFeedUrl } from '../calendar-feeds.schemas.ts';
import { checkFeedUrl } from '../feed-url-check.ts';

export const createCalendarFeed = defineOperation({
  name: 'create_calendar_feed',
  summary: 'Add a busy calendar (ICS feed)',
  description:
    `Adds a calendar’s ICS address (e.g. Google’s “secret address in iCal format”); its events then block slots of ` +
    `every event type. Fetched in the background now and every 15 minutes; list_calendar_feeds shows the outcome. ` +
    `At most ${MAX_FEEDS} per workspace.`,
  method: 'POST',
  path: '/scheduling/calendars',
  group: 'Scheduling',
  scope: 'workspace:manage',
  write: true,
  entitlement: 'scheduling',
  status: 201,
  errors: ['conflict', 'plan_limit'],
  input: Type.Object({ name: CalendarFeedName, url: CalendarFeedUrl }, { additionalProperties: false }),
  output: CalendarFeed,
  example: { name: 'Work calendar', url: 'https://calendar.example.com/ical/private-4f2a/basic.ics' },
  async handler(ctx, input) {
    const url = await checkFeedUrl(input.url, ctx.outbound);
    const row = await insertFeed(
      ctx.db,
      ctx.workspaceId,
      { name: input.name.trim(), urlSealed: ctx.sealedBox(CALENDAR_FEED_URL_PURPOSE).seal(url.href), urlDisplay: displayedFeedUrl(url) },
      ctx.now,
    );
    const nextFetchAt = await queueFeedFetch(ctx.db, ctx.workspaceId, row.id, ctx.now, ctx.now);
    return toCalendarFeed(row, { nextFetchAt: nextFetchAt ?? null, fetching: false });
  },
});
