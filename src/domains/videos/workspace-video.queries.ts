/** A video of the workspace as a query other areas narrow and build on, within one statement. */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/**
 * The video with this id in this workspace (no row for another workspace's), to pick columns from,
 * add conditions to, or insert from: `videoInWorkspace(db, workspaceId, id).select('duration_seconds')`.
 */
export function videoInWorkspace(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
): SelectQueryBuilder<Database, 'videos', object> {
  return db.selectFrom('videos').where('videos.workspace_id', '=', workspaceId).where('videos.id', '=', videoId);
}
