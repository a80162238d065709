/**
 * The calendar feed worker: one job per feed (domains/scheduling/calendar-feeds/calendar-feed-jobs.ts). A run opens
 * the feed's sealed URL, fetches it through the SSRF guard (pinned connection, FETCH_TIMEOUT_MS for
 * everything from DNS to the last byte, MAX_FEED_BYTES counted as the body streams), reads its busy
 * times in a child process under a deadline (ics-reader.ts), and replaces the stored ones; or, when any step
 * fails, records why in a sentence and keeps the last good busy times. Either way it queues the next
 * fetch FEED_REFRESH_MS later. Failures of the feed are outcomes, not job failures: only a database
 * outage or a dying worker makes the queue retry the job.
 */
import type { Kysely } from 'kysely';
import type { Log, OutboundSettings } from '../core/context.ts';
import { createSealedBox } from '../core/secrets/sealed-box.ts';
import type { Database } from '../db/tables/index.ts';
import {
  CALENDAR_FEED_FETCH_JOB,
  CALENDAR_FEED_URL_PURPOSE,
  FEED_FETCH_ATTEMPTS,
  FEED_REFRESH_MS,
  type FeedIds,
  FeedReadError,
  type FeedWindow,
  feedToFetch,
  queueFeedFetch,
  readBusyTimes,
  recordFeedFailure,
  storeFeedBusyTimes,
} from '../domains/scheduling/index.ts';
import type { JobHandler } from '../job-queue/worker.ts';
import { OutboundRequestError } from '../net/outbound-error.ts';
import { safeFetch } from '../net/safe-fetch.ts';

export const FETCH_TIMEOUT_MS = 10_000;
export const MAX_FEED_BYTES = 5 * 1024 * 1024;
const DAY_MS = 86_400_000;
/** Busy times are kept from a day ago (a slot being booked now) to 400 days ahead (past any event type's horizon). */
const WINDOW_BEFORE_MS = DAY_MS;
const WINDOW_AFTER_MS = 400 * DAY_MS;

export interface CalendarFeedFetchOptions {
  /** The service secret feed URLs are sealed under. */
  secret: string;
  outbound: Pick<OutboundSettings, 'allowPrivateNetworks' | 'lookup'>;
  log: Log;
  clock?: () => Date;
  timeoutMs?: number;
  maxBytes?: number;
  /** How long the process reading a feed may take (ics-reader.ts). */
  readDeadlineMs?: number;
}

export type FetchOutcome = 'stored' | 'failed' | 'gone';

export function calendarFeedFetchHandler(options: CalendarFeedFetchOptions): JobHandler {
  const clock = options.clock ?? (() => new Date());
  const queueNext = (db: Kysely<Database>, ids: FeedIds) =>
    db
      .transaction()
      .execute((tx) => queueFeedFetch(tx, ids.workspaceId, ids.feedId, new Date(clock().getTime() + FEED_REFRESH_MS), clock()));
  return {
    kind: CALENDAR_FEED_FETCH_JOB,
    maxAttempts: FEED_FETCH_ATTEMPTS,
    retryDelayMs: (attempt) => 30_000 * attempt,
    async run(job, { db, signal }) {
      const ids = { workspaceId: job.workspaceId as string, feedId: String(job.payload.feed_id) };
      if ((await fetchCalendarFeed(db, ids, options, signal)) !== 'gone') await queueNext(db, ids);
    },
    async onFailed(job, reason, db) {
      options.log.warn({ job: job.id, reason }, 'calendar feed fetch failed for good; next one queued');
      await queueNext(db, { workspaceId: job.workspaceId as string, feedId: String(job.payload.feed_id) });
    },
  };
}

/** Fetches one feed now and records the outcome. Throws only for what is not the feed's doing (database, shutdown). */
export async function fetchCalendarFeed(
  db: Kysely<Database>,
  ids: FeedIds,
  options: CalendarFeedFetchOptions,
  signal?: AbortSignal,
): Promise<FetchOutcome> {
  const clock = options.clock ?? (() => new Date());
  const feed = await feedToFetch(db, ids);
  if (!feed) return 'gone';
  const now = clock().getTime();
  const window: FeedWindow = { timeZone: feed.timeZone, from: now - WINDOW_BEFORE_MS, to: now + WINDOW_AFTER_MS };
  try {
    const url = openUrl(options.secret, feed.urlSealed);
    const text = await download(url, options, signal);
    const busy = await readBusyTimes(text, window, { deadlineMs: options.readDeadlineMs, signal });
    return (await storeFeedBusyTimes(db, ids, busy, clock())) ? 'stored' : 'gone';
  } catch (error) {
    if (signal?.aborted) throw error; // the worker is stopping: the job runs again
    const problem = problemOf(error, options);
    if (problem === undefined) throw error;
    await recordFeedFailure(db, ids, problem, clock());
    return 'failed';
  }
}

class FeedProblem extends Error {}

function openUrl(secret: string, sealed: string): string {
  try {
    return String(createSealedBox(secret, CALENDAR_FEED_URL_PURPOSE).open(sealed));
  } catch {
    throw new FeedProblem(
      'The feed’s address can no longer be read: the server’s secret (CUEPOINT_SECRET) changed since it was added. Delete the feed and add it again.',
    );
  }
}

async function download(url: string, options: CalendarFeedFetchOptions, signal: AbortSignal | undefined): Promise<string> {
  const response = await safeFetch(url, {
    allowPrivateNetworks: options.outbound.allowPrivateNetworks,
    lookup: options.outbound.lookup,
    timeoutMs: options.timeoutMs ?? FETCH_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? MAX_FEED_BYTES,
    headers: { accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1' },
    signal,
  });
  if (response.status < 200 || response.status > 299) {
    response.cancel();
    throw new FeedProblem(`The calendar server answered HTTP ${response.status}${statusHint(response.status)}.`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

function statusHint(status: number): string {
  if (status === 401 || status === 403 || status === 404 || status === 410) {
    return ': the address may have been reset or unshared in the calendar app; add the new one';
  }
  return status >= 500 || status === 429 ? ': it will be tried again at the next refresh' : '';
}

/** The sentence for calendar_feeds.last_error, or undefined for an error that is not the feed's (rethrown). */
function problemOf(error: unknown, options: CalendarFeedFetchOptions): string | undefined {
  if (error instanceof FeedProblem || error instanceof FeedReadError) return error.message;
  if (!(error instanceof OutboundRequestError)) return undefined;
  switch (error.reason) {
    case 'timeout':
      return `The calendar server did not send the whole feed within ${(options.timeoutMs ?? FETCH_TIMEOUT_MS) / 1000} s.`;
    case 'too_large':
      return `The feed is larger than ${formatBytes(options.maxBytes ?? MAX_FEED_BYTES)}, the most that is read.`;
    case 'aborted':
      return undefined;
    default:
      // The guard's messages are written for the workspace; a redirect's target may carry a token, so it is not repeated.
      return error.message.replace(/^The server redirected to .*?: /, 'The calendar server redirected: ');
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}
