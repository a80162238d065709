/**
 * The `video.remove_files` job, queued by delete_video in the transaction that deletes the video:
 * removes every file the video had in the media store (its source, poster and renditions), local disk
 * or S3 alike. Deleting rows first and files after means a rolled-back deletion never loses files; the
 * media URLs already answer 404, since they serve only videos that have a row.
 *
 * A job that was already running when the video was deleted (processing, a rendition, speech-to-text)
 * may still write a file; this job waits until none is running, then removes everything, so nothing
 * written late stays. A store that is down defers it without using an attempt (the worker's outage
 * handling); it runs until it succeeds, and only after VIDEO_FILE_REMOVAL_ATTEMPTS waits does it give
 * up, saying in the log which files are left.
 */
import type { Log } from '../core/context.ts';
import { VIDEO_FILE_REMOVAL_ATTEMPTS, VIDEO_FILE_REMOVAL_JOB } from '../domains/videos/index.ts';
import { runningJobsNaming } from '../job-queue/keyed-jobs.ts';
import type { JobHandler } from '../job-queue/worker.ts';
import type { MediaStore } from '../storage/media-store.ts';

const HOUR_MS = 60 * 60 * 1000;

export interface FileRemovalTools {
  store: MediaStore;
  log: Log;
  /** The wait before attempt n + 1 (tests shorten it). */
  retryDelayMs?: number;
}

export function videoFileRemovalHandler(tools: FileRemovalTools): JobHandler {
  return {
    kind: VIDEO_FILE_REMOVAL_JOB,
    maxAttempts: VIDEO_FILE_REMOVAL_ATTEMPTS,
    retryDelayMs: (attempt) => tools.retryDelayMs ?? Math.min(15_000 * 2 ** (attempt - 1), HOUR_MS),
    async run(job, { db }) {
      const ids = { workspaceId: job.workspaceId as string, videoId: String(job.payload.video_id) };
      const writing = await runningJobsNaming(db, ids.workspaceId, 'video_id', ids.videoId, job.id);
      if (writing > 0) throw new Error(`waiting for ${writing} running job(s) of the video to end before removing its files`);
      await tools.store.removeVideo(ids);
      tools.log.info({ video: ids.videoId }, 'files of a deleted video removed');
    },
    async onFailed(job, reason) {
      tools.log.error(
        { video: job.payload.video_id, workspace: job.workspaceId, reason },
        'the files of a deleted video could not be removed; remove them from the media store by hand',
      );
    },
  };
}
