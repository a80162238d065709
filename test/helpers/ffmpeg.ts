/**
 * The ffmpeg the tests use: the static Linux/macOS/Windows build that the @ffmpeg-installer packages
 * ship inside the npm registry (a dependency; the service finds it too, src/media/bundled-ffmpeg.ts),
 * so poster and subtitle tests run the same on every machine whether or not ffmpeg is installed
 * system-wide.
 */
import { createRequire } from 'node:module';
import { makeTestPatternClip, type TestPatternClip } from '../../src/media/test-pattern-clip.ts';

export const testFfmpegPath: string = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

/** A test-pattern clip (src/media/test-pattern-clip.ts) made with the bundled ffmpeg. */
export function makeTestClip(path: string, clip: TestPatternClip): Promise<void> {
  return makeTestPatternClip(testFfmpegPath, path, clip);
}
