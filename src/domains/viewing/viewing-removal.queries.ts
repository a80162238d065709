/**
 * What viewing gives up when a video is deleted or a lead erased.
 *
 * - A deleted video takes its viewing with it: its sessions and their raw batches, its day rows, its
 *   heatmap and its lifetime totals. The workspace's own day rows (workspace_daily_stats) keep the
 *   views it had: they happened, and past totals do not change when a video goes (decisions.md,
 *   "Deleting a video"). Batches still waiting for the fold when the video goes are dropped by the fold
 *   (it finds no video to count them in) and pruned with the raw retention.
 * - An erased lead's browsers are made anonymous: every session and raw batch of them gets a new
 *   viewer id that nothing links to anyone, so the rollups and the video's numbers stay as they were,
 *   and the browser, should it ever be linked to a lead again, brings none of that history along.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** Deletes every row viewing keeps of the video (sessions, raw batches, day rows, heatmap, lifetime totals). */
export async function deleteVideoViewing(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<void> {
  const sessions = db.selectFrom('viewing_sessions').select('id').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId);
  await db.deleteFrom('viewing_batches').where('session_id', 'in', sessions).execute();
  await db.deleteFrom('viewing_sessions').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId).execute();
  await db.deleteFrom('video_daily_stats').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId).execute();
  await db.deleteFrom('video_heatmaps').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId).execute();
  await db.deleteFrom('video_stats').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId).execute();
}

/** A browser's viewer id and the anonymous one that replaces it. */
export interface ViewerReplacement {
  from: string;
  to: string;
}

/**
 * Replaces the viewer ids of these browsers in the workspace's sessions and raw batches (those folded,
 * found through their sessions, and those the fold has not reached yet). Returns how many sessions changed.
 */
export async function forgetViewers(
  db: Kysely<Database>,
  workspaceId: string,
  replacements: readonly ViewerReplacement[],
): Promise<number> {
  if (replacements.length === 0) return 0;
  const from = replacements.map((replacement) => replacement.from);
  const to = replacements.map((replacement) => replacement.to);
  const sessions = await sql<{ id: string }>`
    update viewing_sessions s set viewer_id = r.to_id
    from unnest(${from}::text[], ${to}::text[]) as r(from_id, to_id)
    where s.workspace_id = ${workspaceId} and s.viewer_id = r.from_id
    returning s.id`.execute(db);
  const sessionIds = sessions.rows.map((row) => row.id);
  await sql`
    update viewing_batches b set viewer_id = r.to_id
    from unnest(${from}::text[], ${to}::text[]) as r(from_id, to_id)
    where b.workspace_id = ${workspaceId} and b.viewer_id = r.from_id
      and (b.session_id = any(${sessionIds}::uuid[])
        or (b.fold_xid is not null and (b.fold_xid, b.position) > (select f.fold_xid, f.position from viewing_fold f)))`.execute(db);
  return sessionIds.length;
}
