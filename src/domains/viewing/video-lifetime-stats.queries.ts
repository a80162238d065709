/**
 * A video's lifetime figures (video_stats: views, viewers, watch time, completions, conversions,
 * leads) for get_video: a table the videos area joins in its own read, so the detail stays one
 * statement. PostgreSQL flattens the subquery into a join on `video_stats`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** The workspace's video lifetime figures, to join by video_id (`.as('s')`); a video never viewed has no row. */
export function videoLifetimeStats(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom('video_stats')
    .select(['video_id', 'views', 'unique_viewers', 'watch_time_seconds', 'engagement_sum', 'completions', 'conversions', 'leads'])
    .where('workspace_id', '=', workspaceId);
}
