/**
 * What an availability answer names when a slot is blocked: the bookings in the way (their times,
 * their event type and the invitee's name, which the output declares personal so masking applies;
 * never the email) and the workspace's calendar feeds with the state of their last fetch.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

/** Feeds read at most; a workspace keeps a handful. */
const MAX_FEEDS = 100;
/** Ids per query, well under the protocol's bound on parameters. */
const IDS_PER_QUERY = 1000;

export interface BlockingBooking {
  id: string;
  starts_at: Date;
  ends_at: Date;
  invitee_name: string | null;
  event_type_name: string;
}

export async function blockingBookings(
  db: Kysely<Database>,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, BlockingBooking>> {
  const found = new Map<string, BlockingBooking>();
  for (let at = 0; at < ids.length; at += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('bookings as booking')
      .innerJoin('event_types as type', 'type.id', 'booking.event_type_id')
      .select(['booking.id', 'booking.starts_at', 'booking.ends_at', 'booking.invitee_name', 'type.name as event_type_name'])
      .where('booking.workspace_id', '=', workspaceId)
      .where('booking.id', 'in', ids.slice(at, at + IDS_PER_QUERY))
      .execute();
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

export interface CalendarFeedState {
  id: string;
  name: string;
  url_display: string;
  last_fetched_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  busy_count: number;
}

export function calendarFeedStates(db: Kysely<Database>, workspaceId: string): Promise<CalendarFeedState[]> {
  return db
    .selectFrom('calendar_feeds')
    .select(['id', 'name', 'url_display', 'last_fetched_at', 'last_success_at', 'last_error', 'busy_count'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('name')
    .orderBy('id')
    .limit(MAX_FEEDS)
    .execute();
}
