/**
 * The life of a direct upload: claimed by exactly one PUT, reopened if that transfer fails, and
 * finished by moving the video to processing and queueing its processing job, in one transaction.
 */
import type { Kysely } from 'kysely';
import { outboxEmitter } from '../../../db/outbox.ts';
import type { Database } from '../../../db/tables/index.ts';
import { enqueueJob } from '../../../job-queue/queue.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import { getVideoDetail } from '../videos.queries.ts';
import { endProcessing } from './processing-writes.queries.ts';

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

/**
 * Marks the upload done, the video processing, and queues its processing. False when the video was
 * deleted while its file was being received: nothing is queued, and the caller removes the file it
 * wrote (the deletion's file removal may have run before the file was there).
 */
export async function finishUpload(db: Kysely<Database>, upload: { videoId: string; workspaceId: string }, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('video_uploads').set({ state: 'done' }).where('video_id', '=', upload.videoId).execute();
    const video = await trx
      .updateTable('videos')
      .set({ status: 'processing', updated_at: now })
      .where('id', '=', upload.videoId)
      .where('workspace_id', '=', upload.workspaceId)
      .returning('id')
      .executeTakeFirst();
    if (!video) return false;
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
    return true;
  });
}

/**
 * Ends processing as failed with a reason the owner can read, unless the video already left
 * processing; records `video.failed` with the video as get_video now returns it (`links` makes its URLs).
 */
export async function markVideoFailed(
  db: Kysely<Database>,
  links: MediaLinks,
  workspaceId: string,
  videoId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await endProcessing(trx, workspaceId, videoId, { status: 'failed', failure_reason: reason }, now))) return;
    const video = await getVideoDetail(trx, workspaceId, videoId, links);
    const emit = outboxEmitter(trx, workspaceId, now);
    await emit('video.failed', { video_id: videoId, failure_reason: reason, video });
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

/**
 * Puts a failed video back to processing, clears its failure reason, and queues the job that makes
 * it again: the import (the file is downloaded again from its link) or, for an upload, the
 * processing of the stored file. The caller holds the video's row lock and has checked it failed.
 */
export async function requeueFailedVideo(
  db: Kysely<Database>,
  video: { workspaceId: string; videoId: string; sourceUrl: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('videos')
    .set({ status: 'processing', failure_reason: null, updated_at: now })
    .where('id', '=', video.videoId)
    .where('workspace_id', '=', video.workspaceId)
    .where('status', '=', 'failed')
    .execute();
  const job = video.sourceUrl
    ? { kind: VIDEO_IMPORT_JOB, payload: { video_id: video.videoId, source_url: video.sourceUrl }, maxAttempts: VIDEO_IMPORT_ATTEMPTS }
    : { kind: VIDEO_PROCESSING_JOB, payload: { video_id: video.videoId }, maxAttempts: VIDEO_PROCESSING_ATTEMPTS };
  await enqueueJob(db, { ...job, workspaceId: video.workspaceId }, now);
}
