/**
 * The day rollups as the analytics reads them (video_daily_stats, workspace_daily_stats,
 * workspace_daily_revenue): never viewing_sessions or viewing_batches, so a read's cost follows the
 * number of videos and days asked for, not the number of views behind them. Every read is scoped to
 * the workspace.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

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

/**
 * Every video-day row of the workspace between two local days, both included, as a query (`d`) to
 * join and pick columns from, so a report can join each video's title in the same statement.
 */
export function workspaceVideoDays(db: Kysely<Database>, workspaceId: string, from: string, to: string) {
  return db
    .selectFrom('video_daily_stats as d')
    .where('d.workspace_id', '=', workspaceId)
    .where('d.day', '>=', from)
    .where('d.day', '<=', to);
}
