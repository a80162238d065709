/**
 * The ffmpeg the tests use: the static Linux/macOS/Windows build that the @ffmpeg-installer packages
 * ship inside the npm registry (a dependency; the service finds it too, src/media/bundled-ffmpeg.ts),
 * so poster and subtitle tests run the same on every machine whether or not ffmpeg is installed
 * system-wide.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

export const testFfmpegPath: string = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

/**
 * Makes an H.264/AAC MP4 test clip of the given size and length (a moving test pattern and a tone)
 * with the bundled ffmpeg, at the fastest preset: a 1080p source for ladder tests without a large
 * fixture in the repository.
 */
export async function makeTestClip(path: string, clip: { width: number; height: number; seconds: number; audio?: boolean }): Promise<void> {
  const audio = clip.audio === false ? [] : ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${clip.seconds}`];
  await promisify(execFile)(testFfmpegPath, [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${clip.width}x${clip.height}:rate=30:duration=${clip.seconds}`,
    ...audio,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    ...(clip.audio === false ? [] : ['-c:a', 'aac']),
    '-movflags',
    '+faststart',
    path,
  ]);
}
