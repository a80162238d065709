/**
 * The life of a direct upload: claimed by exactly one PUT, reopened if that transfer fails, and
 * finished by moving the video to processing and queueing its processing job, in one transaction.
 */
import type { Kysely } from 'kysely';
import { recordEvent } from '../../core/events.ts';
import type { Database } from '../../db/tables.ts';
import { enqueueJob } from '../../jobs/queue.ts';

export const VIDEO_PROCESSING_JOB = 'video.process';
export const VIDEO_PROCESSING_ATTEMPTS = 3;
export const VIDEO_IMPORT_JOB = 'video.import';
export const VIDEO_IMPORT_ATTEMPTS = 4;

export type UploadClaim =
  | { claimed: true; workspaceId: string; fileSize: number }
  | { claimed: false; state: 'receiving' | 'done' | 'expired' | 'missing' };

export async function claimUpload(db: Kysely<Database>, videoId: string, now: Date): Promise<UploadClaim> {
  const row = await db
    .updateTable('video_uploads')
    .set({ state: 'receiving' })
    .where('video_id', '=', videoId)
    .where('state', '=', 'open')
    .where('expires_at', '>', now)
    .returning(['workspace_id', 'file_size'])
    .executeTakeFirst();
  if (row) return { claimed: true, workspaceId: row.workspace_id, fileSize: row.file_size };
  const current = await db.selectFrom('video_uploads').select(['state', 'expires_at']).where('video_id', '=', videoId).executeTakeFirst();
  if (!current) return { claimed: false, state: 'missing' };
  if (current.state === 'open') return { claimed: false, state: 'expired' };
  return { claimed: false, state: current.state };
}

export async function reopenUpload(db: Kysely<Database>, videoId: string): Promise<void> {
  await db.updateTable('video_uploads').set({ state: 'open' }).where('video_id', '=', videoId).where('state', '=', 'receiving').execute();
}

export async function finishUpload(db: Kysely<Database>, upload: { videoId: string; workspaceId: string }, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('video_uploads').set({ state: 'done' }).where('video_id', '=', upload.videoId).execute();
    await trx
      .updateTable('videos')
      .set({ status: 'processing', updated_at: now })
      .where('id', '=', upload.videoId)
      .where('workspace_id', '=', upload.workspaceId)
      .execute();
    await enqueueJob(
      trx,
      {
        kind: VIDEO_PROCESSING_JOB,
        workspaceId: upload.workspaceId,
        payload: { video_id: upload.videoId },
        maxAttempts: VIDEO_PROCESSING_ATTEMPTS,
      },
      now,
    );
  });
}

/** Ends processing as failed with a reason the owner can read, unless the video already left processing. */
export async function markVideoFailed(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('videos')
      .set({ status: 'failed', failure_reason: reason, updated_at: now })
      .where('id', '=', videoId)
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'processing')
      .returning('id')
      .executeTakeFirst();
    if (row) await recordEvent(trx, { workspaceId, type: 'video.failed', data: { video_id: videoId, reason }, at: now });
  });
}

/** Whether a job still has work to do on the video: running it again after it left processing changes nothing. */
export async function isStillProcessing(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<boolean> {
  const video = await db
    .selectFrom('videos')
    .select('status')
    .where('id', '=', videoId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return video?.status === 'processing';
}
