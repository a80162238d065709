/**
 * The videos area's own part of deleting a video: its queued jobs, its renditions and upload, its row,
 * and the job that removes its files from the media store once the deletion has committed. Files are
 * outside the transaction: removing them first would lose them if the transaction rolled back (or ran
 * again after a deadlock), so the rows go first and a durable job follows, queued in the same
 * transaction. The media URLs stop serving at once anyway: they serve only videos that have a row.
 */
import type { Kysely } from 'kysely';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database } from '../../db/tables/index.ts';
import { dropQueuedJobsNaming } from '../../job-queue/keyed-jobs.ts';
import { enqueueJob } from '../../job-queue/queue.ts';

/** The job that removes a deleted video's files (source, poster, every rendition). */
export const VIDEO_FILE_REMOVAL_JOB = 'video.remove_files';
/**
 * Tried until done: a store that is down defers it without using an attempt, and an attempt that
 * waits for a job still writing the video's files (a rendition started before the deletion) uses one,
 * with a backoff reaching an hour, so 30 attempts wait about a day in all.
 */
export const VIDEO_FILE_REMOVAL_ATTEMPTS = 30;

/** Takes the video's row until the transaction ends (not_found unless the workspace has it); its title. */
export async function lockVideoForDeletion(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<{ title: string }> {
  return findInWorkspace(db, 'videos', { workspaceId, id: videoId }, (query) => query.select('title').forUpdate());
}

/**
 * Deletes the video's row with what belongs to it alone (renditions, its upload), drops its queued
 * jobs (processing, import, renditions, speech-to-text: a job running now finds the video gone), and
 * queues the removal of its files. The caller holds the video's row lock and has removed what other
 * areas keep of it (route steps refer to it and would refuse the delete).
 */
export async function deleteVideoRow(db: Kysely<Database>, workspaceId: string, videoId: string, now: Date): Promise<void> {
  await dropQueuedJobsNaming(db, workspaceId, 'video_id', videoId);
  await db.deleteFrom('video_renditions').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId).execute();
  await db.deleteFrom('video_uploads').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId).execute();
  await db.deleteFrom('videos').where('workspace_id', '=', workspaceId).where('id', '=', videoId).execute();
  await enqueueJob(
    db,
    { kind: VIDEO_FILE_REMOVAL_JOB, workspaceId, payload: { video_id: videoId }, maxAttempts: VIDEO_FILE_REMOVAL_ATTEMPTS },
    now,
  );
}
