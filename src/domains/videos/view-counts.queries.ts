/**
 * The videos' view counts (`view_count`, what list_videos sorts by as most viewed), moved forward
 * by the viewing fold in its transaction: one statement however many videos a fold touched.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

export interface NewViews {
  videoId: string;
  workspaceId: string;
  views: number;
}

/** Adds each video's new views to its count (one UPDATE; the fold spans workspaces, each row names its own). */
export async function addViewCounts(db: Kysely<Database>, viewed: readonly NewViews[]): Promise<void> {
  if (viewed.length === 0) return;
  const rows = viewed.map((row) => ({ video_id: row.videoId, workspace_id: row.workspaceId, views: row.views }));
  await sql`
    update videos set view_count = videos.view_count + r.views
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(video_id uuid, workspace_id uuid, views int)
    where videos.id = r.video_id and videos.workspace_id = r.workspace_id`.execute(db);
}
