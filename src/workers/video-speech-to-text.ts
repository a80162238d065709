/**
 * The `video.speech_to_text` job (docs/speech-to-text.md): queued when a video becomes ready with a
 * sound track and no transcript while speech-to-text is on. It takes the sound out with ffmpeg
 * (16 kHz mono WAV, in a temporary directory removed afterwards), has the configured engine
 * recognise it, and saves the words as the video's transcript with source `speech_to_text`, unless
 * a transcript has appeared meanwhile. A video longer than the configured limit is left without
 * one. Failures are retried with backoff and then logged; the video is never failed for them.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../core/context.ts';
import { SPEECH_TO_TEXT_ATTEMPTS, SPEECH_TO_TEXT_JOB, saveRecognisedSpeech, videoAwaitingSpeech } from '../domains/transcripts/index.ts';
import type { JobHandler } from '../job-queue/worker.ts';
import { extractSpeechAudio } from '../media/speech/speech-audio.ts';
import type { SpeechToText } from '../media/speech/speech-to-text.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { makeWorkDir } from '../storage/work-dirs.ts';

/** Taking the sound out: a minute, plus a second for every ten of video (decoding is fast; a busy machine is not). */
const EXTRACT_BASE_MS = 60_000;
const EXTRACT_MS_PER_SECOND = 100;

export interface SpeechToTextTools {
  store: MediaStore;
  ffmpegPath: string;
  engine: SpeechToText;
  /** Videos longer than this are not transcribed (CUEPOINT_SPEECH_TO_TEXT_MAX_SECONDS). */
  maxSeconds: number;
  log: Log;
  clock?: () => Date;
  /** Wait before attempt n + 1; default 1 minute, then 5. Tests shorten it. */
  retryDelayMs?: (attempt: number) => number;
}

export function videoSpeechToTextHandler(tools: SpeechToTextTools): JobHandler {
  const clock = tools.clock ?? (() => new Date());
  return {
    kind: SPEECH_TO_TEXT_JOB,
    maxAttempts: SPEECH_TO_TEXT_ATTEMPTS,
    retryDelayMs: tools.retryDelayMs ?? ((attempt) => 60_000 * 5 ** (attempt - 1)),
    async run(job, { db, signal }) {
      const ids = { workspaceId: job.workspaceId as string, videoId: String(job.payload.video_id) };
      const video = await videoAwaitingSpeech(db, ids.workspaceId, ids.videoId);
      if (!video) return; // gone, no longer ready, or it has a transcript already
      if (video.durationSeconds !== null && video.durationSeconds > tools.maxSeconds) {
        tools.log.info(
          { video: ids.videoId, duration_seconds: video.durationSeconds, max_seconds: tools.maxSeconds },
          'video longer than CUEPOINT_SPEECH_TO_TEXT_MAX_SECONDS: no speech-to-text',
        );
        return;
      }
      const started = Date.now();
      const dir = await makeWorkDir('speech');
      try {
        const wav = join(dir, 'speech.wav');
        await tools.store.withLocalFile({ ...ids, file: 'source' }, (source) =>
          extractSpeechAudio(tools.ffmpegPath, source, wav, {
            maxSeconds: tools.maxSeconds,
            timeoutMs: EXTRACT_BASE_MS + (video.durationSeconds ?? tools.maxSeconds) * EXTRACT_MS_PER_SECOND,
            signal,
          }),
        );
        const speech = await tools.engine.transcribe(wav, { signal });
        const facts = { video: ids.videoId, engine: tools.engine.description, took_ms: Date.now() - started };
        if (speech.segments.length === 0) {
          tools.log.info(facts, 'speech-to-text heard no words: the video keeps no transcript');
          return;
        }
        const saved = await db.transaction().execute((trx) => saveRecognisedSpeech(trx, ids.workspaceId, ids.videoId, speech, clock()));
        tools.log.info(
          { ...facts, segments: speech.segments.length, language: speech.language },
          saved ? 'speech-to-text transcript saved' : 'speech-to-text done, but the video got a transcript meanwhile: kept that one',
        );
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async onFailed(job, reason) {
      tools.log.warn(
        { job: job.id, video: job.payload.video_id, reason },
        'speech-to-text failed for good: the video stays without a transcript',
      );
    },
  };
}
