/**
 * The suites the fast lane leaves out (`npm run test:fast`): each needs something slow to start or to
 * run — another process, a browser, a fault injected into a real service, speech recognition, ffmpeg,
 * thousands of generated requests, or the MCP conformance tool. `npm test` runs them all.
 */
export const SLOW_LANES = {
  process: ['test/process/', 'test/mcp/mcp-stdio.test.ts', 'test/bench-smoke.test.ts'],
  browser: ['test/browser/'],
  faults: ['test/faults/'],
  speech: ['src/media/speech/pocketsphinx.test.ts', 'src/workers/video-speech-to-text.test.ts'],
  ffmpeg: [
    'src/media/ffmpeg.test.ts',
    'src/cli/demo-media.test.ts',
    'src/workers/video-renditions.test.ts',
    'src/workers/video-extras.test.ts',
  ],
  fuzz: ['test/fuzz/'],
  conformance: ['test/mcp/conformance.test.ts'],
} as const satisfies Record<string, readonly string[]>;

export type SlowLane = keyof typeof SLOW_LANES;

/** The slow lane a test file (a path relative to the repository) belongs to, or undefined for the fast lane. */
export function slowLaneOf(file: string): SlowLane | undefined {
  for (const [lane, entries] of Object.entries(SLOW_LANES) as [SlowLane, readonly string[]][]) {
    if (entries.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry))) return lane;
  }
  return undefined;
}
