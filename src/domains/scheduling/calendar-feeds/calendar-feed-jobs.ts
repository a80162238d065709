/**
 * Each calendar feed has one pending fetch job in the durable queue (job-queue/queue.ts): creating a
 * feed queues it now, a refresh moves it to now, and each fetch queues the next FEED_REFRESH_MS
 * later. Queuing locks the feed's row first, so two requests (or a request and the worker) never
 * leave a feed with two queued jobs; a fetch already running is not counted, so a refresh during it
 * runs again after it. The worker's maintenance requeues any feed left with none (a job that failed
 * for good after its worker kept dying), so no feed stops refreshing for ever.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import { bringQueuedJobForward, dropQueuedJobs, type KeyedJobs, pendingJobsOf, pendingKeyedJobs } from '../../../job-queue/keyed-jobs.ts';
import { enqueueJob } from '../../../job-queue/queue.ts';

export const CALENDAR_FEED_FETCH_JOB = 'calendar_feed_fetch';
export const FEED_REFRESH_MS = 15 * 60_000;
/** Fetch failures are recorded and retried by the next refresh; attempts only cover a worker that died or a database outage. */
export const FEED_FETCH_ATTEMPTS = 3;

/** The fetch jobs of a workspace's feeds: their payload names the feed in `feed_id`. */
const feedFetches = (workspaceId: string): KeyedJobs => ({ kind: CALENDAR_FEED_FETCH_JOB, workspaceId, field: 'feed_id' });

/** Makes sure the feed has a queued fetch due by `runAt`; returns when it is due, or undefined when the feed is gone. */
export async function queueFeedFetch(
  db: Kysely<Database>,
  workspaceId: string,
  feedId: string,
  runAt: Date,
  now: Date,
): Promise<Date | undefined> {
  const feed = await db
    .selectFrom('calendar_feeds')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', feedId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!feed) return undefined;
  const queued = await bringQueuedJobForward(db, feedFetches(workspaceId), feedId, runAt, now);
  if (queued) return queued;
  await enqueueJob(
    db,
    { kind: CALENDAR_FEED_FETCH_JOB, workspaceId, payload: { feed_id: feedId }, maxAttempts: FEED_FETCH_ATTEMPTS, runAt },
    now,
  );
  return runAt;
}

export interface FeedFetchState {
  /** When the queued fetch is due; null when none is queued. */
  nextFetchAt: Date | null;
  /** A worker is fetching it now. */
  fetching: boolean;
}

/** The pending fetch jobs of a workspace's feeds, by feed id. */
export async function feedFetchStates(
  db: Kysely<Database>,
  workspaceId: string,
  feedIds: readonly string[],
): Promise<Map<string, FeedFetchState>> {
  const states = new Map<string, FeedFetchState>(feedIds.map((id) => [id, { nextFetchAt: null, fetching: false }]));
  if (feedIds.length === 0) return states;
  const jobs = await pendingKeyedJobs(db, feedFetches(workspaceId));
  for (const job of jobs) {
    const state = states.get(job.value);
    if (!state) continue;
    if (job.status === 'running') state.fetching = true;
    else if (!state.nextFetchAt || job.run_at < state.nextFetchAt) state.nextFetchAt = job.run_at;
  }
  return states;
}

/** Drops a feed's queued fetches (deleting it); a fetch already running finds the feed gone and stops. */
export async function dropFeedFetches(db: Kysely<Database>, workspaceId: string, feedId: string): Promise<void> {
  await dropQueuedJobs(db, feedFetches(workspaceId), feedId);
}

/** Queues a fetch, due now, for every feed of every workspace that has none queued or running; how many. */
export async function requeueStrandedFeeds(db: Kysely<Database>, now: Date): Promise<number> {
  const stranded = await db
    .selectFrom('calendar_feeds as feed')
    .select(['feed.id', 'feed.workspace_id'])
    .where(({ not, exists }) =>
      not(
        exists(
          pendingJobsOf(db, CALENDAR_FEED_FETCH_JOB, 'feed_id', {
            workspaceId: sql.ref<string>('feed.workspace_id'),
            value: sql<string>`feed.id::text`,
          }),
        ),
      ),
    )
    .execute();
  for (const feed of stranded) {
    await db.transaction().execute((tx) => queueFeedFetch(tx, feed.workspace_id, feed.id, now, now));
  }
  return stranded.length;
}
