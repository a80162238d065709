/** How calendar feeds look to callers: never their full URL, which is kept sealed (calendar-feed-url.ts). */
import { type Static, Type } from 'typebox';
import { describedPattern, Nullable, ResourceId, ShownText, Timestamp, Trimmed } from '../../../core/schemas.ts';

export const CalendarFeedId = ResourceId('calendar_feed', 'The calendar feed id, as list_calendar_feeds returns it.');

// Stored trimmed (docs/scheduling.md), so trimmed before it is judged.
export const CalendarFeedName = Trimmed(ShownText('What the calendar is; busy_calendar reasons name it.', 100));

export const CalendarFeedUrl = Type.String({
  minLength: 1,
  maxLength: 4096,
  ...describedPattern('^\\s*(?:[hH][tT][tT][pP][sS]?|[wW][eE][bB][cC][aA][lL][sS]?)://', 'must be an http, https or webcal URL'),
  description: 'The calendar’s ICS address (http, https or webcal, read as https). Kept sealed; answers show only its host.',
});

export const CalendarFeed = Type.Object(
  {
    calendar_feed_id: CalendarFeedId,
    name: Type.String(),
    url: Type.String({ description: 'Scheme, host and first path segment only.' }),
    last_fetched_at: Nullable(Timestamp('Last fetch, successful or not.')),
    last_success_at: Nullable(Timestamp('Last successful fetch: the busy times are from it.')),
    last_error: Nullable(Type.String({ description: 'Why the last fetch failed (earlier busy times still apply); null otherwise.' })),
    busy_count: Type.Integer({ minimum: 0, description: 'Busy times kept, from a day ago to 400 days ahead.' }),
    next_fetch_at: Nullable(Timestamp('When the next fetch is due; null while one runs.')),
    fetching: Type.Boolean({ description: 'A fetch is running now.' }),
    created_at: Timestamp('When it was added.'),
  },
  { additionalProperties: false },
);
export type CalendarFeed = Static<typeof CalendarFeed>;
