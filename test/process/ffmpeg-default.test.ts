/**
 * What a new user gets from `npm install && npm start`: with no CUEPOINT_FFMPEG and no ffmpeg on
 * PATH, the server finds the build bundled with @ffmpeg-installer (a dependency), and its start-up
 * log says which ffmpeg it uses and where it came from.
 */
import assert from 'node:assert/strict';
import test from 'node:test';
import { testFfmpegPath } from '../helpers/ffmpeg.ts';
import { startServer, tempDir } from '../helpers/server-process.ts';

test('a plain start finds the bundled ffmpeg and says so in its start-up log', { timeout: 300_000 }, async (t) => {
  const server = await startServer(t, { dataDir: tempDir(t), env: { LOG_LEVEL: 'info', PATH: '/nonexistent' }, readyTimeoutMs: 240_000 });
  // The line is logged just after the server listens; the logger writes asynchronously, so on a busy
  // machine it can reach stdout a moment after /ready first answers.
  const announcedLine = () =>
    server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; ffmpeg?: string; source?: string })
      .find((line) => line.msg?.startsWith('ffmpeg found'));
  const deadline = Date.now() + 10_000;
  while (!announcedLine() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const announced = announcedLine();
  assert.ok(announced, `no ffmpeg line in the start-up log:\n${server.stdout()}`);
  assert.equal(
    announced.msg,
    'ffmpeg found (bundled with @ffmpeg-installer): processed videos get a poster, their embedded subtitles and an HLS ladder',
  );
  assert.deepEqual([announced.ffmpeg, announced.source], [testFfmpegPath, 'bundled']);
});
