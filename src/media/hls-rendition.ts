/**
 * Makes one HLS rendition with ffmpeg: H.264 Main at the rung's size and level, AAC-LC stereo when the
 * source has sound, a key frame every 2 s so every segment starts on one (4 s segments, each
 * independently decodable), and a complete VOD playlist. The rate is capped (maxrate/bufsize), so a
 * segment can only be so large; the whole output is checked against that bound as well, and the time
 * ffmpeg may take grows with the video's length. Returns what the master playlist declares.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runFfmpeg } from './ffmpeg.ts';
import type { RenditionPlan } from './hls-ladder.ts';

export const RENDITION_PLAYLIST = 'index.m3u8';
export const SEGMENT_SECONDS = 4;
const KEY_FRAME_SECONDS = 2;
/** Segment files: `seg-00000.ts` on; the pattern the media routes accept. */
export const SEGMENT_FILE = /^seg-\d{5}\.ts$/;
/** A minute to start and finish, plus three seconds per second of video (veryfast makes 1080p at several times real time here). */
const TIME_BASE_MS = 60_000;
const TIME_PER_SECOND_MS = 3000;

export interface MadeRendition {
  /** Segment files in play order, with their length in seconds and bytes. */
  segments: { file: string; seconds: number; bytes: number }[];
  /** The peak segment bit rate, bits per second (BANDWIDTH). */
  bandwidth: number;
  /** The whole stream's bit rate, bits per second (AVERAGE-BANDWIDTH). */
  averageBandwidth: number;
  bytes: number;
}

export async function makeRendition(
  ffmpegPath: string,
  source: string,
  plan: RenditionPlan,
  outputDir: string,
  options: { durationSeconds: number; signal?: AbortSignal },
): Promise<MadeRendition> {
  const maxKbps = Math.round(plan.videoKbps * 1.2) + (plan.audioKbps ?? 0);
  const run = runFfmpeg(ffmpegPath, renditionArgs(source, plan, outputDir), {
    timeoutMs: TIME_BASE_MS + options.durationSeconds * TIME_PER_SECOND_MS,
    signal: options.signal,
  });
  run.stdout.resume(); // ffmpeg writes files, not its output; nothing should pile up on the pipe
  await run.finished;

  const segments = await playlistSegments(outputDir);
  if (segments.length === 0) throw new Error('ffmpeg made no segment');
  const bytes = segments.reduce((sum, segment) => sum + segment.bytes, 0);
  const seconds = segments.reduce((sum, segment) => sum + segment.seconds, 0);
  // Twice the capped rate over the whole length, plus room for container overhead and a short clip's first segment.
  const bound = ((maxKbps * 1000) / 8) * Math.max(seconds, SEGMENT_SECONDS) * 2 + 1024 * 1024;
  if (bytes > bound) throw new Error(`the rendition came out at ${bytes} bytes, more than its rate allows (${Math.round(bound)})`);
  const rates = segments.map((segment) => (segment.bytes * 8) / Math.max(segment.seconds, 0.1));
  return {
    segments,
    bandwidth: Math.ceil(Math.max(...rates)),
    averageBandwidth: Math.ceil((bytes * 8) / Math.max(seconds, 0.1)),
    bytes,
  };
}

function renditionArgs(source: string, plan: RenditionPlan, outputDir: string): string[] {
  const audio =
    plan.audioKbps === null ? ['-an'] : ['-map', '0:a:0', '-c:a', 'aac', '-b:a', `${plan.audioKbps}k`, '-ac', '2', '-ar', '48000'];
  return [
    '-i',
    source,
    '-map',
    '0:v:0',
    ...audio,
    '-vf',
    `scale=${plan.width}:${plan.height},setsar=1`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'main',
    '-level:v',
    plan.level,
    '-pix_fmt',
    'yuv420p',
    '-b:v',
    `${plan.videoKbps}k`,
    '-maxrate',
    `${Math.round(plan.videoKbps * 1.2)}k`,
    '-bufsize',
    `${plan.videoKbps * 2}k`,
    '-force_key_frames',
    `expr:gte(t,n_forced*${KEY_FRAME_SECONDS})`,
    '-sc_threshold',
    '0',
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    join(outputDir, 'seg-%05d.ts'),
    join(outputDir, RENDITION_PLAYLIST),
  ];
}

/** The segments ffmpeg's playlist lists, each with its EXTINF length and its size on disk. */
async function playlistSegments(outputDir: string): Promise<MadeRendition['segments']> {
  const lines = (await readFile(join(outputDir, RENDITION_PLAYLIST), 'utf8')).split(/\r?\n/);
  const segments: MadeRendition['segments'] = [];
  let seconds: number | undefined;
  for (const line of lines) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(line);
    if (extinf) seconds = Number(extinf[1]);
    else if (line && !line.startsWith('#')) {
      if (!SEGMENT_FILE.test(line) || seconds === undefined)
        throw new Error(`ffmpeg's playlist has an unexpected entry: ${line.slice(0, 80)}`);
      segments.push({ file: line, seconds, bytes: (await stat(join(outputDir, line))).size });
      seconds = undefined;
    }
  }
  return segments;
}
