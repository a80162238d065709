/**
 * The lifetime rollups as the analytics reads them (video_stats, video_heatmaps): a row per video,
 * whatever the number of views behind it. Every read is scoped to the workspace.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

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

const lifetimeColumns = ['views', 'engagement_sum', 'completions', 'conversions', 'leads'] as const;

/** Lifetime totals of the given videos (videos nobody watched have no row). */
export async function lifetimeStatsOfVideos(db: Kysely<Database>, workspaceId: string, videoIds: readonly string[]) {
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
