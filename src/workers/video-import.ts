import {
  isStillProcessing,
  markVideoFailed,
  recordSourceFileSize,
  VIDEO_IMPORT_ATTEMPTS,
  VIDEO_IMPORT_JOB,
} from '../domains/videos/index.ts';
import type { JobHandler } from '../job-queue/worker.ts';
import type { Cidr } from '../net/address-policy.ts';
import { OutboundRequestError } from '../net/outbound-error.ts';
import { safeFetch } from '../net/safe-fetch.ts';
import { UploadSizeError } from '../storage/media-store.ts';
import { type ProcessingTools, probeAndFinish } from './video-processing.ts';

const DOWNLOAD_TIMEOUT_MS = 30 * 60 * 1000;

/** A failure the same request would meet again: fail the video now instead of retrying. */
class PermanentImportFailure extends Error {}

export function videoImportHandler(
  options: ProcessingTools & {
    allowPrivateNetworks: readonly Cidr[];
    maxBytes: number;
    clock?: () => Date;
  },
): JobHandler {
  const clock = options.clock ?? (() => new Date());
  return {
    kind: VIDEO_IMPORT_JOB,
    maxAttempts: VIDEO_IMPORT_ATTEMPTS,
    retryDelayMs: (attempt) => 10_000 * 3 ** (attempt - 1),
    async run(job, { db, signal }) {
      const videoId = String(job.payload.video_id);
      const workspaceId = job.workspaceId as string;
      if (!(await isStillProcessing(db, workspaceId, videoId))) return; // done already, or gone
      try {
        const bytes = await download(String(job.payload.source_url), { workspaceId, videoId }, signal);
        await recordSourceFileSize(db, workspaceId, videoId, bytes, clock());
      } catch (error) {
        if (error instanceof PermanentImportFailure) {
          await markVideoFailed(db, options.links, workspaceId, videoId, error.message, clock());
          return;
        }
        throw error;
      }
      await probeAndFinish(db, options, { workspaceId, videoId }, { clock, signal });
    },
    async onFailed(job, reason, db) {
      options.log.warn({ job: job.id, reason }, 'video import failed for good');
      await markVideoFailed(
        db,
        options.links,
        job.workspaceId as string,
        String(job.payload.video_id),
        `The import failed: ${reason}`,
        clock(),
      );
    },
  };

  async function download(sourceUrl: string, ids: { workspaceId: string; videoId: string }, signal: AbortSignal): Promise<number> {
    try {
      const response = await safeFetch(sourceUrl, {
        allowPrivateNetworks: options.allowPrivateNetworks,
        maxBytes: options.maxBytes,
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
        signal,
      });
      if (response.status >= 400) {
        response.cancel();
        const message = `The link answered HTTP ${response.status}.`;
        if (response.status >= 500 || response.status === 429) throw new Error(message);
        throw new PermanentImportFailure(`${message} Check that it is public and points to the file itself.`);
      }
      if (response.status >= 300) {
        response.cancel();
        throw new PermanentImportFailure(`The link answered HTTP ${response.status} without a usable redirect.`);
      }
      return await options.store.write({ ...ids, file: 'source' }, response.body, { atMost: options.maxBytes });
    } catch (error) {
      if (error instanceof OutboundRequestError && !error.retryable)
        throw new PermanentImportFailure(`The link could not be fetched: ${error.message}`);
      if (error instanceof UploadSizeError) throw new PermanentImportFailure(error.message);
      throw error;
    }
  }
}
