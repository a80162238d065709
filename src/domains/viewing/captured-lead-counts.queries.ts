/**
 * The lead counts of the viewing rollups: a lead captured by a video's form counts once per (lead,
 * video) in the workspace's day, the video's day and the video's lifetime (its form's conversions),
 * written by lead capture in its transaction.
 */
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { emptySketch } from './viewer-sketch.ts';

/** Counts a captured lead in the video's day, the workspace's day and the video's lifetime (its form's conversions). */
export async function countCapturedLead(
  trx: Transaction<Database>,
  workspaceId: string,
  videoId: string,
  day: string,
  at: Date,
): Promise<void> {
  // The workspace's day first: the order every writer of these rows locks them in (the fold too).
  await trx
    .insertInto('workspace_daily_stats')
    .values({ workspace_id: workspaceId, day, viewer_sketch: emptySketch(), video_sketch: emptySketch(), leads: 1 })
    .onConflict((conflict) =>
      conflict.columns(['workspace_id', 'day']).doUpdateSet({ leads: sql<number>`workspace_daily_stats.leads + 1` }),
    )
    .execute();
  await trx
    .insertInto('video_daily_stats')
    .values({ video_id: videoId, day, workspace_id: workspaceId, viewer_sketch: emptySketch(), leads: 1 })
    .onConflict((conflict) => conflict.columns(['video_id', 'day']).doUpdateSet({ leads: sql<number>`video_daily_stats.leads + 1` }))
    .execute();
  await trx
    .insertInto('video_stats')
    .values({ video_id: videoId, workspace_id: workspaceId, leads: 1, updated_at: at })
    .onConflict((conflict) => conflict.column('video_id').doUpdateSet({ leads: sql<number>`video_stats.leads + 1`, updated_at: at }))
    .execute();
}
