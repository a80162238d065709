/**
 * Analytics reads of viewing. They read only the rollups (video_daily_stats, workspace_daily_stats,
 * video_heatmaps, video_stats), never viewing_sessions or viewing_batches, so their cost follows the number of videos and days asked
 * for, not the number of views behind them. Every query is scoped to the workspace; a video of
 * another workspace is not_found.
 */
import type { Kysely } from 'kysely';
import { startOfLocalDay } from '../../../core/calendar/calendar-days.ts';
import { findInWorkspace } from '../../../core/find-in-workspace.ts';
import type { Database, TranscriptSegmentJson } from '../../../db/tables/index.ts';

export async function workspaceTimeZone(db: Kysely<Database>, workspaceId: string): Promise<string> {
  const row = await db.selectFrom('workspaces').select('timezone').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  return row.timezone;
}

export interface VideoFacts {
  video_id: string;
  title: string;
  duration_seconds: number | null;
}

export async function findVideo(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<VideoFacts> {
  return findInWorkspace(db, 'videos', { workspaceId, id: videoId }, (query) =>
    query.select(['id as video_id', 'title', 'duration_seconds']),
  );
}

/** The videos of this workspace among the ids, with their titles; the caller checks none is missing. */
export async function findVideos(db: Kysely<Database>, workspaceId: string, videoIds: readonly string[]): Promise<VideoFacts[]> {
  return db
    .selectFrom('videos')
    .select(['id as video_id', 'title', 'duration_seconds'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...videoIds])
    .execute();
}

const dayColumns = ['day', 'views', 'watch_time_seconds', 'engagement_sum', 'completions', 'conversions', 'leads'] as const;

/** One video's day rows between two local days, both included, with their viewer sketches. */
export async function videoDayRows(db: Kysely<Database>, workspaceId: string, videoId: string, from: string, to: string) {
  return db
    .selectFrom('video_daily_stats')
    .select([...dayColumns, 'viewer_sketch'])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .orderBy('day')
    .execute();
}

/**
 * The workspace's day rows between two local days (one per day with any viewing, lead capture or
 * new lead), with the sketches of their viewers and of the videos viewed: the summary and the daily
 * series read days, not video-days, so their cost follows the days asked for, not the size of the
 * library or of its history.
 */
export async function workspaceDayRows(db: Kysely<Database>, workspaceId: string, from: string, to: string) {
  return db
    .selectFrom('workspace_daily_stats')
    .select([...dayColumns, 'new_leads', 'viewer_sketch', 'video_sketch'])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
}

/** The workspace's succeeded revenue per local day and currency between two days, both included. */
export async function workspaceRevenueDays(db: Kysely<Database>, workspaceId: string, from: string, to: string) {
  return db
    .selectFrom('workspace_daily_revenue')
    .select(['day', 'currency', 'purchases', 'purchased', 'refunds', 'refunded'])
    .where('workspace_id', '=', workspaceId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .execute();
}

/** The same rows without sketches, with each video's title, for comparisons between periods. */
export async function workspaceDayRowsWithTitles(db: Kysely<Database>, workspaceId: string, from: string, to: string) {
  return db
    .selectFrom('video_daily_stats as d')
    .innerJoin('videos as v', 'v.id', 'd.video_id')
    .select([
      'd.day',
      'd.views',
      'd.watch_time_seconds',
      'd.engagement_sum',
      'd.completions',
      'd.conversions',
      'd.leads',
      'd.video_id',
      'v.title',
    ])
    .where('d.workspace_id', '=', workspaceId)
    .where('d.day', '>=', from)
    .where('d.day', '<=', to)
    .execute();
}

/** The video's heatmap with its lifetime engagement; null before anyone watched. */
export async function videoHeatmap(db: Kysely<Database>, workspaceId: string, videoId: string) {
  const row = await db
    .selectFrom('video_heatmaps as h')
    .leftJoin('video_stats as s', 's.video_id', 'h.video_id')
    .select(['h.views', 'h.reach', 'h.plays', 'h.cta_clicks', 's.engagement_sum'])
    .where('h.workspace_id', '=', workspaceId)
    .where('h.video_id', '=', videoId)
    .executeTakeFirst();
  return row ?? null;
}

export async function transcriptSegments(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
): Promise<TranscriptSegmentJson[] | null> {
  const row = await db
    .selectFrom('video_transcripts')
    .select('segments')
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .executeTakeFirst();
  return row?.segments ?? null;
}

const lifetimeColumns = ['views', 'engagement_sum', 'completions', 'conversions', 'leads'] as const;

/** Lifetime totals of the given videos (videos nobody watched have no row). */
export async function lifetimeStats(db: Kysely<Database>, workspaceId: string, videoIds: readonly string[]) {
  return db
    .selectFrom('video_stats')
    .select(['video_id', ...lifetimeColumns])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', 'in', [...videoIds])
    .execute();
}

/** Lifetime totals of the whole workspace: one row per video, summed. */
export async function workspaceLifetimeTotals(db: Kysely<Database>, workspaceId: string) {
  const row = await db
    .selectFrom('video_stats')
    .select((eb) => lifetimeColumns.map((column) => eb.fn.coalesce(eb.fn.sum<number>(column), eb.lit(0)).as(column)))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return {
    views: Number(row.views),
    engagement_sum: Number(row.engagement_sum),
    completions: Number(row.completions),
    conversions: Number(row.conversions),
    leads: Number(row.leads),
  };
}

export interface StatusEvent {
  type: 'video.ready' | 'video.failed';
  video_id: string;
  title: string | null;
  at: Date;
  reason: string | null;
}

/** Videos that became ready or failed since the start of a local day, newest first. */
export async function videoStatusEvents(
  db: Kysely<Database>,
  workspaceId: string,
  since: { day: string; timeZone: string },
  limit: number,
): Promise<StatusEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(['type', 'data', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'in', ['video.ready', 'video.failed'])
    .where('created_at', '>=', startOfLocalDay(since.day, since.timeZone))
    .orderBy('sequence', 'desc')
    .limit(limit)
    .execute();
  const events = rows.map((row) => {
    const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as {
      video_id?: unknown;
      failure_reason?: unknown;
      reason?: unknown;
    };
    // `reason` is how video.failed named it before the events catalog; older rows keep that name.
    const reason = data.failure_reason ?? data.reason;
    return {
      type: row.type as StatusEvent['type'],
      video_id: typeof data.video_id === 'string' ? data.video_id : '',
      at: row.created_at,
      reason: typeof reason === 'string' ? reason : null,
    };
  });
  const valid = events.filter((event) => UUID.test(event.video_id));
  const ids = [...new Set(valid.map((event) => event.video_id))];
  const titles = new Map((ids.length > 0 ? await findVideos(db, workspaceId, ids) : []).map((video) => [video.video_id, video.title]));
  return valid.map((event) => ({ ...event, title: titles.get(event.video_id) ?? null }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
