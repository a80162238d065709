import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { testFfmpegPath } from '../../test/helpers/ffmpeg.ts';
import { ffmpegText, runFfmpeg } from './ffmpeg.ts';

const clip = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'clip-subtitled.mp4');

test('output is kept for a reader that starts after ffmpeg has exited', async () => {
  const run = runFfmpeg(testFfmpegPath, ['-ss', '0.3', '-i', clip, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', 'pipe:1'], {
    timeoutMs: 60_000,
  });
  await run.finished; // Node drops unread child output at exit unless it is held
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout) chunks.push(chunk as Buffer);
  const jpeg = Buffer.concat(chunks);
  assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff]);
});

test('failures say why: a bad input, too much output, too long', async () => {
  await assert.rejects(
    ffmpegText(testFfmpegPath, ['-i', '/nonexistent.mp4', '-f', 'null', '-'], { timeoutMs: 60_000, maxBytes: 1000 }),
    /ffmpeg exited with 1: .*No such file/,
  );
  await assert.rejects(
    ffmpegText(testFfmpegPath, ['-i', clip, '-map', '0:v', '-f', 'rawvideo', 'pipe:1'], { timeoutMs: 60_000, maxBytes: 1000 }),
    /ffmpeg wrote more than 1000 bytes/,
  );
  await assert.rejects(
    ffmpegText(testFfmpegPath, ['-re', '-stream_loop', '-1', '-i', clip, '-f', 'null', '-'], { timeoutMs: 300, maxBytes: 1000 }),
    /ffmpeg took longer than 300 ms/,
  );
  await assert.rejects(ffmpegText('/nonexistent/ffmpeg', [], { timeoutMs: 1000, maxBytes: 10 }), /ffmpeg could not be started/);
});
