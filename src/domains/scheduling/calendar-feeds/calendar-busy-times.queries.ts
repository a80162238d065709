/**
 * What a feed's fetch reads and leaves: its sealed URL and the workspace's zone going in; coming out,
 * either its busy times replaced as a whole with the success recorded (one transaction, under a lock
 * on the feed row, so two fetches of one feed write one after the other), or the failure recorded
 * with the busy times of the last success kept, since a calendar that cannot be read for a while
 * has not become free.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import { workspaceSettings } from '../../workspace/index.ts';
import type { FeedBusyTime } from './ics-busy-times.ts';

export interface FeedIds {
  workspaceId: string;
  feedId: string;
}

/** Rows per insert: five parameters each stays far below PostgreSQL's 65,535. */
const INSERT_BATCH = 1000;

export async function feedToFetch(db: Kysely<Database>, ids: FeedIds): Promise<{ urlSealed: string; timeZone: string } | undefined> {
  const row = await db
    .selectFrom('calendar_feeds as feed')
    .innerJoin(workspaceSettings(db).as('workspace'), 'workspace.id', 'feed.workspace_id')
    .select(['feed.url_sealed', 'workspace.timezone'])
    .where('feed.workspace_id', '=', ids.workspaceId)
    .where('feed.id', '=', ids.feedId)
    .executeTakeFirst();
  return row && { urlSealed: row.url_sealed, timeZone: row.timezone };
}

/** Replaces the feed's busy times; false when the feed was deleted meanwhile (nothing is written). */
export function storeFeedBusyTimes(db: Kysely<Database>, ids: FeedIds, busy: readonly FeedBusyTime[], at: Date): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const feed = await tx
      .selectFrom('calendar_feeds')
      .select('id')
      .where('workspace_id', '=', ids.workspaceId)
      .where('id', '=', ids.feedId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!feed) return false;
    await tx.deleteFrom('calendar_busy_times').where('workspace_id', '=', ids.workspaceId).where('feed_id', '=', ids.feedId).execute();
    for (let i = 0; i < busy.length; i += INSERT_BATCH) {
      await tx
        .insertInto('calendar_busy_times')
        .values(
          busy.slice(i, i + INSERT_BATCH).map((interval) => ({
            feed_id: ids.feedId,
            workspace_id: ids.workspaceId,
            starts_at: new Date(interval.start),
            ends_at: new Date(interval.end),
            summary: interval.summary,
          })),
        )
        .execute();
    }
    await tx
      .updateTable('calendar_feeds')
      .set({ last_fetched_at: at, last_success_at: at, last_error: null, busy_count: busy.length, updated_at: at })
      .where('workspace_id', '=', ids.workspaceId)
      .where('id', '=', ids.feedId)
      .execute();
    return true;
  });
}

/** Records why the fetch failed; the busy times of the last success stay. */
export async function recordFeedFailure(db: Kysely<Database>, ids: FeedIds, problem: string, at: Date): Promise<void> {
  await db
    .updateTable('calendar_feeds')
    .set({ last_fetched_at: at, last_error: problem, updated_at: at })
    .where('workspace_id', '=', ids.workspaceId)
    .where('id', '=', ids.feedId)
    .execute();
}
