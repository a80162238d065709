/**
 * Writes an H.264/AAC MP4 of ffmpeg's moving test pattern (and a 440 Hz tone) at a given size and
 * length: a source of any size for the ladder's tests and the transcode benchmark, without a large
 * file in the repository.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface TestPatternClip {
  width: number;
  height: number;
  seconds: number;
  /** Default true: a tone on an AAC track. */
  audio?: boolean;
  /** x264's preset (default `ultrafast`: cheap to make) and, if given, a target bit rate like `8M`. */
  preset?: string;
  videoBitrate?: string;
}

export async function makeTestPatternClip(ffmpegPath: string, path: string, clip: TestPatternClip): Promise<void> {
  const withAudio = clip.audio !== false;
  await promisify(execFile)(ffmpegPath, [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${clip.width}x${clip.height}:rate=30:duration=${clip.seconds}`,
    ...(withAudio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${clip.seconds}`] : []),
    '-c:v',
    'libx264',
    '-preset',
    clip.preset ?? 'ultrafast',
    ...(clip.videoBitrate ? ['-b:v', clip.videoBitrate] : []),
    '-pix_fmt',
    'yuv420p',
    ...(withAudio ? ['-c:a', 'aac'] : []),
    '-movflags',
    '+faststart',
    path,
  ]);
}
