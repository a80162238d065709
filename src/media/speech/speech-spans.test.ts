/**
 * Finding speech by loudness and packing it into windows, on made-up loudness curves and WAV files:
 * pauses split, gaps between words do not, clicks are not speech, a silent file has none, long
 * speech is cut at its quietest moment, and WAV files are read wherever their samples start.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { findSpeech, frameLoudness, packWindows } from './speech-spans.ts';
import { readWavLayout, readWavSamples, wavFileOf } from './wav-file.ts';

/** A loudness curve of 10 ms frames: -20 dB where `loud(second)` says, -90 dB elsewhere. */
function curve(seconds: number, loud: (second: number) => boolean): Float32Array {
  return Float32Array.from({ length: Math.round(seconds * 100) }, (_, frame) => (loud(frame / 100) ? -20 : -90));
}

function scratch(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-spans-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('speech between pauses, padded; word gaps bridged; clicks dropped; silence is nothing', () => {
  const speech = (s: number) => (s >= 1 && s < 2) || (s >= 2.2 && s < 3) || (s >= 5 && s < 6) || (s >= 8 && s < 8.05);
  assert.deepEqual(findSpeech(curve(10, speech)), [
    // 1–3 s with a 0.2 s gap inside (between words), then 5–6 s; the 50 ms click at 8 s is not speech.
    { startSeconds: 0.7, endSeconds: 3.3 },
    { startSeconds: 4.7, endSeconds: 6.3 },
  ]);
  assert.deepEqual(findSpeech(curve(10, () => false)), []);
  assert.deepEqual(findSpeech(new Float32Array(0)), []);
  // Padding never crosses the middle of a short pause, nor the ends of the recording.
  assert.deepEqual(findSpeech(curve(2, (s) => s < 0.5 || (s >= 0.8 && s < 2))), [
    { startSeconds: 0, endSeconds: 0.65 },
    { startSeconds: 0.65, endSeconds: 2 },
  ]);
});

test('windows: neighbours joined up to the limits; long speech cut at its quietest moment', () => {
  const loudness = curve(60, (s) => s < 50);
  loudness[1400] = -40; // a dip at 14 s, in the second half of the first 20 s
  loudness[2900] = -45; // and at 29 s, in the second half of the 20 s after the first cut
  const [span] = findSpeech(loudness);
  assert.deepEqual(packWindows([span as never], loudness, { maxSeconds: 20, maxGapSeconds: 1 }), [
    { startSeconds: 0, endSeconds: 14 },
    { startSeconds: 14, endSeconds: 29 },
    { startSeconds: 29, endSeconds: 49 },
    { startSeconds: 49, endSeconds: 50.3 },
  ]);
  const spans = [
    { startSeconds: 0, endSeconds: 2 },
    { startSeconds: 2.5, endSeconds: 4 },
    { startSeconds: 6, endSeconds: 7 },
    { startSeconds: 7.5, endSeconds: 12 },
  ];
  assert.deepEqual(packWindows(spans, loudness, { maxSeconds: 10, maxGapSeconds: 1 }), [
    { startSeconds: 0, endSeconds: 4 },
    { startSeconds: 6, endSeconds: 12 },
  ]);
  assert.deepEqual(packWindows(spans, loudness, { maxSeconds: 10, maxGapSeconds: Number.POSITIVE_INFINITY }), [
    { startSeconds: 0, endSeconds: 7 },
    { startSeconds: 7.5, endSeconds: 12 },
  ]);
});

test('loudness of a real WAV file, frame by frame', async (t) => {
  const samples = Buffer.alloc(16_000 * 2); // one second
  for (let i = 8000; i < 16_000; i++) samples.writeInt16LE(i % 2 === 0 ? 16_384 : -16_384, i * 2); // the second half at half scale
  const path = join(scratch(t), 'half.wav');
  writeFileSync(path, wavFileOf(samples));
  const loudness = await frameLoudness(path, await readWavLayout(path));
  assert.equal(loudness.length, 100);
  assert.ok((loudness[10] as number) < -100, 'silence');
  assert.ok(Math.abs((loudness[60] as number) - -6.02) < 0.01, `half scale is -6 dB, not ${loudness[60]}`);
});

test('WAV files: samples found after other chunks; anything but 16 kHz mono 16-bit refused', async (t) => {
  const dir = scratch(t);
  const samples = Buffer.from([1, 0, 2, 0, 3, 0, 4, 0]);
  const plain = wavFileOf(samples);
  // ffmpeg without bitexact writes a LIST chunk between fmt and data.
  const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([6, 0, 0, 0]), Buffer.from('INFOab')]);
  const withList = Buffer.concat([plain.subarray(0, 36), list, plain.subarray(36)]);
  withList.writeUInt32LE(withList.length - 8, 4);
  const path = join(dir, 'list.wav');
  writeFileSync(path, withList);
  const layout = await readWavLayout(path);
  assert.deepEqual(layout, { dataOffset: 58, dataBytes: 8 });
  assert.deepEqual([...(await readWavSamples(path, layout, 0, 1))], [...samples]);
  assert.deepEqual([...(await readWavSamples(path, layout, 1 / 16_000, 3 / 16_000))], [2, 0, 3, 0]);

  const stereo = Buffer.from(plain);
  stereo.writeUInt16LE(2, 22);
  writeFileSync(join(dir, 'stereo.wav'), stereo);
  await assert.rejects(readWavLayout(join(dir, 'stereo.wav')), /is not 16 kHz mono 16-bit PCM/);
  writeFileSync(join(dir, 'text.wav'), 'not a wav at all');
  await assert.rejects(readWavLayout(join(dir, 'text.wav')), /is not a WAV file/);
});
