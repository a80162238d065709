/**
 * Videos of a workspace in an order the demo seed picks from: most viewed first, and the oldest of a
 * given set.
 */
import type { Kysely } from 'kysely';
import type { Database, VideoRow } from '../../db/tables/index.ts';

/**
 * Every video of the workspace, most viewed first (then by title). `view_count` is the count the
 * viewing fold keeps equal to video_stats.views, in the same transaction (viewing/fold-writes.queries.ts).
 */
export function videosByViews(db: Kysely<Database>, workspaceId: string): Promise<Pick<VideoRow, 'id' | 'status' | 'archived'>[]> {
  return db
    .selectFrom('videos')
    .select(['id', 'status', 'archived'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('view_count', 'desc')
    .orderBy('title')
    .execute();
}

/** The `limit` oldest of the given videos of the workspace (by creation, then id), with their titles. */
export function oldestVideosAmong(
  db: Kysely<Database>,
  workspaceId: string,
  videoIds: readonly string[],
  limit: number,
): Promise<Pick<VideoRow, 'id' | 'title'>[]> {
  if (videoIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('videos')
    .select(['id', 'title'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', videoIds)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}
