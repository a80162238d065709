/**
 * A workspace's calendar feeds: adding one (at most MAX_FEEDS, counted under a lock on the workspace
 * row so two requests cannot both take the last place), listing them newest first with their fetch
 * state, and deleting one with its busy times.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import { findInWorkspace } from '../../../core/find-in-workspace.ts';
import { keysetPage, NEWEST_FIRST } from '../../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../../core/lists/pagination.ts';
import type { Database } from '../../../db/tables/index.ts';
import { lockWorkspace } from '../../workspace/index.ts';
import { type FeedFetchState, feedFetchStates } from './calendar-feed-jobs.ts';
import type { CalendarFeed } from './calendar-feeds.schemas.ts';

export const MAX_FEEDS = 10;

export type CalendarFeedRow = Selectable<Database['calendar_feeds']>;

/** The columns answers show: never url_sealed. */
const SHOWN = [
  'id',
  'name',
  'url_display',
  'last_fetched_at',
  'last_success_at',
  'last_error',
  'busy_count',
  'created_at',
] as const satisfies readonly (keyof CalendarFeedRow)[];
export type ShownFeedRow = Pick<CalendarFeedRow, (typeof SHOWN)[number]>;

export async function insertFeed(
  db: Kysely<Database>,
  workspaceId: string,
  fields: { name: string; urlSealed: string; urlDisplay: string },
  now: Date,
): Promise<ShownFeedRow> {
  if (!(await lockWorkspace(db, workspaceId))) throw new Error(`insertFeed: no workspace ${workspaceId}`);
  const { count } = await db
    .selectFrom('calendar_feeds')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_FEEDS) {
    throw new AppError(
      'conflict',
      `This workspace already has ${MAX_FEEDS} calendar feeds, the most it may have: delete one with delete_calendar_feed first.`,
      { reason: 'feed_limit', limit: MAX_FEEDS },
    );
  }
  return db
    .insertInto('calendar_feeds')
    .values({
      id: randomUUID(),
      workspace_id: workspaceId,
      name: fields.name,
      url_sealed: fields.urlSealed,
      url_display: fields.urlDisplay,
      last_fetched_at: null,
      last_success_at: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .returning(SHOWN)
    .executeTakeFirstOrThrow();
}

export function listFeedRows(db: Kysely<Database>, workspaceId: string, page: PageRequest): Promise<KeysetRows<ShownFeedRow>> {
  const filtered = db.selectFrom('calendar_feeds').where('workspace_id', '=', workspaceId);
  return keysetPage(filtered, (query) => query.select(SHOWN), NEWEST_FIRST, page);
}

export function findFeed(db: Kysely<Database>, workspaceId: string, feedId: string): Promise<ShownFeedRow> {
  return findInWorkspace(db, 'calendar_feeds', { workspaceId, id: feedId }, (query) => query.select(SHOWN));
}

/** Deletes the feed; its busy times go with it (on delete cascade). Answers the row as it was and how many busy times it had. */
export async function deleteFeed(db: Kysely<Database>, workspaceId: string, feedId: string): Promise<ShownFeedRow> {
  await findFeed(db, workspaceId, feedId);
  return db
    .deleteFrom('calendar_feeds')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', feedId)
    .returning(SHOWN)
    .executeTakeFirstOrThrow();
}

/** Feeds as answers show them, with their fetch jobs' state. */
export async function feedsAsShown(db: Kysely<Database>, workspaceId: string, rows: readonly ShownFeedRow[]): Promise<CalendarFeed[]> {
  const states = await feedFetchStates(
    db,
    workspaceId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toCalendarFeed(row, states.get(row.id) ?? { nextFetchAt: null, fetching: false }));
}

export function toCalendarFeed(row: ShownFeedRow, state: FeedFetchState): CalendarFeed {
  return {
    calendar_feed_id: row.id,
    name: row.name,
    url: row.url_display,
    last_fetched_at: row.last_fetched_at?.toISOString() ?? null,
    last_success_at: row.last_success_at?.toISOString() ?? null,
    last_error: row.last_error,
    busy_count: row.busy_count,
    next_fetch_at: state.nextFetchAt?.toISOString() ?? null,
    fetching: state.fetching,
    created_at: row.created_at.toISOString(),
  };
}
