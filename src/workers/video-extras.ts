/**
 * What ffmpeg adds once a file is known to be a video: a poster image (a frame a little way in,
 * scaled to at most 1280 px wide, stored beside the source) and, when the file carries a text
 * subtitle track, that track as the video's first transcript. Both are extras: any failure is logged
 * and the video still becomes ready without them; without ffmpeg nothing is attempted.
 */
import type { Log } from '../core/context.ts';
import { ffmpegText, runFfmpeg } from '../media/ffmpeg.ts';
import type { MediaFacts } from '../media/probe.ts';
import { parseWebVtt, type TranscriptSegment } from '../media/webvtt.ts';
import type { MediaKey, MediaStore } from '../storage/media-store.ts';

const POSTER_MAX_BYTES = 10 * 1024 * 1024;
const POSTER_TIMEOUT_MS = 60_000;
const SUBTITLES_MAX_BYTES = 5 * 1024 * 1024;
const SUBTITLES_TIMEOUT_MS = 120_000;
/** The frame is taken a tenth of the way in (openings are often black), but never later than 5 s. */
const POSTER_AT_SHARE = 0.1;
const POSTER_AT_MOST_SECONDS = 5;

export interface VideoExtras {
  hasPoster: boolean;
  transcript: { language: string | null; segments: TranscriptSegment[] } | null;
}

export interface ExtrasTools {
  store: MediaStore;
  /** Null when the operator has no ffmpeg: the video gets no poster and no transcript. */
  ffmpegPath: string | null;
  log: Log;
  signal?: AbortSignal;
}

export async function makeVideoExtras(
  tools: ExtrasTools,
  ids: { workspaceId: string; videoId: string },
  /** A local path of the source file (MediaStore.withLocalFile). */
  source: string,
  facts: MediaFacts,
): Promise<VideoExtras> {
  const { ffmpegPath } = tools;
  if (!ffmpegPath) return { hasPoster: false, transcript: null };
  const [poster, transcript] = await Promise.allSettled([
    makePoster(tools, ffmpegPath, source, { ...ids, file: 'poster.jpg' }, facts.durationSeconds),
    facts.textSubtitles ? extractSubtitles(tools, ffmpegPath, source, facts.textSubtitles) : Promise.resolve(null),
  ]);
  if (poster.status === 'rejected') tools.log.warn({ video: ids.videoId, err: poster.reason }, 'no poster made');
  if (transcript.status === 'rejected') tools.log.warn({ video: ids.videoId, err: transcript.reason }, 'embedded subtitles not read');
  return {
    hasPoster: poster.status === 'fulfilled',
    transcript: transcript.status === 'fulfilled' ? transcript.value : null,
  };
}

/** Stores the poster under `key`, or throws why not (leaving none); the demo seed makes its clips' posters with it too. */
export async function makePoster(
  tools: Pick<ExtrasTools, 'store' | 'signal'>,
  ffmpegPath: string,
  source: string,
  key: MediaKey,
  duration: number | null,
): Promise<void> {
  const at = duration ? Math.min(duration * POSTER_AT_SHARE, POSTER_AT_MOST_SECONDS) : 0;
  const run = runFfmpeg(
    ffmpegPath,
    [
      '-ss',
      at.toFixed(3),
      '-i',
      source,
      '-frames:v',
      '1',
      '-vf',
      "scale='min(1280,iw)':-2",
      '-q:v',
      '3',
      '-f',
      'image2pipe',
      '-c:v',
      'mjpeg',
      'pipe:1',
    ],
    { timeoutMs: POSTER_TIMEOUT_MS, signal: tools.signal },
  );
  const [written, exit] = await Promise.allSettled([tools.store.write(key, run.stdout, { atMost: POSTER_MAX_BYTES }), run.finished]);
  const failure =
    written.status === 'rejected'
      ? written.reason
      : exit.status === 'rejected'
        ? exit.reason
        : written.value === 0
          ? new Error('ffmpeg produced no frame')
          : null;
  if (failure) {
    run.kill();
    await tools.store.remove(key);
    throw failure;
  }
}

async function extractSubtitles(
  tools: ExtrasTools,
  ffmpegPath: string,
  source: string,
  track: NonNullable<MediaFacts['textSubtitles']>,
): Promise<VideoExtras['transcript']> {
  const stream = track.streamIndex === null ? '0:s:0' : `0:${track.streamIndex}`;
  const webVtt = await ffmpegText(ffmpegPath, ['-i', source, '-map', stream, '-f', 'webvtt', 'pipe:1'], {
    timeoutMs: SUBTITLES_TIMEOUT_MS,
    maxBytes: SUBTITLES_MAX_BYTES,
    signal: tools.signal,
  });
  const segments = parseWebVtt(webVtt);
  return segments.length > 0 ? { language: track.language, segments } : null;
}
