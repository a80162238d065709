/**
 * The `video.process` job: probes the received file and makes the video `ready` with its duration,
 * dimensions, codecs and bitrate — plus, when ffmpeg is available, a poster and the transcript from
 * embedded subtitles (video-extras.ts) and the lowest rendition of its HLS ladder, the others queued
 * as `video.rendition` jobs (video-renditions.ts) — (event `video.ready`; with speech-to-text on, a ready video with
 * sound and no transcript also gets a `video.speech_to_text` job), or `failed` with a reason the owner can read
 * (event `video.failed`): a file that is not a video fails at once; an error retries, and the last
 * failure — or workers that kept dying — ends the video failed too. Nothing stays processing forever.
 */
import type { Kysely } from 'kysely';
import type { Log } from '../core/context.ts';
import { outboxEmitter } from '../db/outbox.ts';
import type { Database } from '../db/tables/index.ts';
import { queueSpeechToText, saveTranscript } from '../domains/transcripts/index.ts';
import {
  endProcessing,
  failRendition,
  getVideoDetail,
  isStillProcessing,
  markVideoFailed,
  planRenditions,
  queueRenditionJobs,
  startRendition,
  VIDEO_PROCESSING_ATTEMPTS,
  VIDEO_PROCESSING_JOB,
} from '../domains/videos/index.ts';
import type { JobHandler } from '../job-queue/worker.ts';
import { planLadder } from '../media/hls-ladder.ts';
import type { MediaLinks } from '../media/media-links.ts';
import { type MediaFacts, probedVideoColumns, probeMedia } from '../media/probe.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { makeVideoExtras } from './video-extras.ts';
import { makeAndStoreRendition, UNKNOWN_DURATION_SECONDS } from './video-renditions.ts';

/**
 * What processing works with: where files live, the ffmpeg to use (null: none), where to log, and
 * the public URLs of media (the video in `video.ready` and `video.failed` events carries them, as get_video does).
 */
export interface ProcessingTools {
  store: MediaStore;
  ffmpegPath: string | null;
  log: Log;
  links: MediaLinks;
  /** Speech-to-text is on (CUEPOINT_SPEECH_TO_TEXT): a video ready with sound and no transcript gets a job for it. */
  speechToText?: boolean;
}

export function videoProcessingHandler(options: ProcessingTools & { clock?: () => Date }): JobHandler {
  const clock = options.clock ?? (() => new Date());
  return {
    kind: VIDEO_PROCESSING_JOB,
    maxAttempts: VIDEO_PROCESSING_ATTEMPTS,
    retryDelayMs: (attempt) => 5000 * 2 ** (attempt - 1),
    async run(job, { db, signal }) {
      const videoId = String(job.payload.video_id);
      const workspaceId = job.workspaceId as string;
      if (!(await isStillProcessing(db, workspaceId, videoId))) return; // done already, or gone
      await probeAndFinish(db, options, { workspaceId, videoId }, { clock, signal });
    },
    async onFailed(job, reason, db) {
      options.log.warn({ job: job.id, reason }, 'video processing failed for good');
      await markVideoFailed(
        db,
        options.links,
        job.workspaceId as string,
        String(job.payload.video_id),
        `Processing failed: ${reason}`,
        clock(),
      );
    },
  };
}

/**
 * Plans the video's HLS ladder and makes its lowest rung now, so the video is adaptive from the moment
 * it is ready; answers the renditions still to make (their jobs are queued with the ready video). A
 * lowest rung that fails is marked failed and the video is ready anyway (its original plays). Without
 * ffmpeg, or without a known picture size, there is no ladder.
 */
async function startLadder(
  db: Kysely<Database>,
  tools: ProcessingTools & { signal?: AbortSignal; clock: () => Date },
  ids: { workspaceId: string; videoId: string },
  source: string,
  facts: MediaFacts,
): Promise<string[]> {
  if (!tools.ffmpegPath || !facts.width || !facts.height) return [];
  const plans = planLadder({ width: facts.width, height: facts.height, hasAudio: facts.audioCodec !== null });
  const renditions = await planRenditions(db, ids, plans, tools.clock());
  const [lowest, ...others] = renditions;
  if (lowest && (await startRendition(db, ids, lowest.id, tools.clock()))) {
    try {
      const rendition = { ...tools, ffmpegPath: tools.ffmpegPath, db };
      await makeAndStoreRendition(rendition, ids, lowest, source, facts.durationSeconds ?? UNKNOWN_DURATION_SECONDS);
    } catch (error) {
      tools.log.warn({ video: ids.videoId, rendition: lowest.name, err: error }, 'lowest rendition failed: the video plays its original');
      await failRendition(db, lowest.id, error instanceof Error ? error.message : String(error), tools.clock());
    }
  }
  return others.filter((rendition) => rendition.state !== 'ready' && rendition.state !== 'failed').map((rendition) => rendition.id);
}

/** Probes the stored source file and ends processing: ready with its facts, or failed if not a video. */
export async function probeAndFinish(
  db: Kysely<Database>,
  tools: ProcessingTools,
  { workspaceId, videoId }: { workspaceId: string; videoId: string },
  { clock, signal }: { clock: () => Date; signal?: AbortSignal },
): Promise<void> {
  const probed = await tools.store.withLocalFile({ workspaceId, videoId, file: 'source' }, async (source) => {
    const facts = await probeMedia(source);
    if (!facts.hasVideo) return { facts, extras: null, toQueue: [] };
    const extras = await makeVideoExtras({ ...tools, signal }, { workspaceId, videoId }, source, facts);
    const toQueue = await startLadder(db, { ...tools, signal, clock }, { workspaceId, videoId }, source, facts);
    return { facts, extras, toQueue };
  });
  const { facts, extras, toQueue } = probed;
  if (!extras) {
    const what = facts.format ? `a ${facts.format} file with no video track` : 'not a format we recognise';
    await markVideoFailed(db, tools.links, workspaceId, videoId, `The file is not a video: it is ${what}.`, clock());
    return;
  }
  await db.transaction().execute(async (trx) => {
    const now = clock();
    const ready = await endProcessing(
      trx,
      workspaceId,
      videoId,
      { status: 'ready', ...probedVideoColumns(facts), has_poster: extras.hasPoster, failure_reason: null },
      now,
    );
    if (ready && extras.transcript) {
      await saveTranscript(trx, workspaceId, videoId, { source: 'embedded', ...extras.transcript }, now);
    } else if (ready && tools.speechToText && facts.audioCodec !== null) {
      await queueSpeechToText(trx, workspaceId, videoId, now);
    }
    if (ready) await queueRenditionJobs(trx, { workspaceId, videoId }, toQueue, now);
    if (ready) {
      const video = await getVideoDetail(trx, workspaceId, videoId, tools.links);
      const emit = outboxEmitter(trx, workspaceId, now);
      await emit('video.ready', { video_id: videoId, video });
    }
  });
}
