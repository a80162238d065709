/**
 * Makes a video's HLS renditions. Processing makes the lowest before the video is ready (so it plays
 * adaptively from the first moment); each other rung is a `video.rendition` job. A rendition is
 * transcoded into a temporary folder and its files written to the media store under its id, the
 * playlist last, before the row says ready: a player never sees a rendition whose files are not all
 * there. A failure removes what was written and marks only that rendition failed: the video keeps
 * playing its other renditions, or its original.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Log } from '../core/context.ts';
import type { Database } from '../db/tables/index.ts';
import {
  failRendition,
  finishRendition,
  type PlannedRendition,
  startRendition,
  VIDEO_RENDITION_ATTEMPTS,
  VIDEO_RENDITION_JOB,
  videoDuration,
} from '../domains/videos/index.ts';
import type { JobHandler } from '../job-queue/worker.ts';
import { renditionPlan } from '../media/hls-ladder.ts';
import { makeRendition, RENDITION_PLAYLIST } from '../media/hls-rendition.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { makeWorkDir } from '../storage/work-dirs.ts';

/** How long a video whose length the prober could not tell is taken to be, for the encoder's time limit. */
export const UNKNOWN_DURATION_SECONDS = 1800;

/** The largest file a rendition may store: a segment is a few seconds at a capped rate. */
const FILE_MAX_BYTES = 64 * 1024 * 1024;

export interface RenditionTools {
  store: MediaStore;
  ffmpegPath: string;
  log: Log;
  clock?: () => Date;
  /** The wait before attempt n + 1 (tests shorten it). */
  retryDelayMs?: number;
}

type VideoIds = { workspaceId: string; videoId: string };

/**
 * Transcodes `rendition` from the local `source` and stores its files; marks it ready. Throws why not,
 * leaving none of its files.
 */
export async function makeAndStoreRendition(
  tools: RenditionTools & { db: Kysely<Database>; signal?: AbortSignal },
  ids: VideoIds,
  rendition: Pick<PlannedRendition, 'id' | 'plan'>,
  source: string,
  durationSeconds: number,
): Promise<void> {
  const clock = tools.clock ?? (() => new Date());
  const dir = await makeWorkDir('rendition');
  try {
    const made = await makeRendition(tools.ffmpegPath, source, rendition.plan, dir, { durationSeconds, signal: tools.signal });
    const write = (file: string) =>
      tools.store.write({ ...ids, file: `hls/${rendition.id}/${file}` }, createReadStream(join(dir, file)), { atMost: FILE_MAX_BYTES });
    for (const segment of made.segments) await write(segment.file);
    await write(RENDITION_PLAYLIST);
    await finishRendition(tools.db, rendition.id, { ...made, segments: made.segments.length }, clock());
  } catch (error) {
    await tools.store.removeRendition(ids, rendition.id).catch(() => undefined);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The `video.rendition` job: one rung of a ready video's ladder. */
export function videoRenditionHandler(tools: RenditionTools): JobHandler {
  const clock = tools.clock ?? (() => new Date());
  return {
    kind: VIDEO_RENDITION_JOB,
    maxAttempts: VIDEO_RENDITION_ATTEMPTS,
    retryDelayMs: (attempt) => tools.retryDelayMs ?? 10_000 * 3 ** (attempt - 1),
    async run(job, { db, signal }) {
      const ids = { workspaceId: job.workspaceId as string, videoId: String(job.payload.video_id) };
      const durationSeconds = await videoDuration(db, ids.workspaceId, ids.videoId, 'ready');
      if (durationSeconds === undefined) return; // gone, or no longer ready
      const row = await startRendition(db, ids, String(job.payload.rendition_id), clock());
      if (!row) return; // made already, or given up on
      // The rung as it was planned, whatever the ladder says today.
      const plan = renditionPlan({
        name: row.name,
        width: row.width,
        height: row.height,
        videoKbps: row.video_kbps,
        audioKbps: row.audio_kbps,
      });
      await tools.store.withLocalFile({ ...ids, file: 'source' }, (source) =>
        makeAndStoreRendition({ ...tools, db, signal }, ids, { id: row.id, plan }, source, durationSeconds ?? UNKNOWN_DURATION_SECONDS),
      );
      tools.log.info({ video: ids.videoId, rendition: row.name }, 'rendition ready');
    },
    async onFailed(job, reason, db) {
      tools.log.warn(
        { video: job.payload.video_id, rendition: job.payload.rendition_id, reason },
        'rendition failed for good: the video plays without it',
      );
      await failRendition(db, String(job.payload.rendition_id), reason, clock());
    },
  };
}
