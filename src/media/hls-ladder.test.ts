import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planLadder } from './hls-ladder.ts';

const sizes = (plans: ReturnType<typeof planLadder>) => plans.map((plan) => `${plan.name} ${plan.width}x${plan.height}`);

test('a 1080p source gets every rung from 240p to 1080p, lowest first, each with its level and codecs', () => {
  const ladder = planLadder({ width: 1920, height: 1080, hasAudio: true });
  assert.deepEqual(sizes(ladder), ['240p 426x240', '360p 640x360', '540p 960x540', '720p 1280x720', '1080p 1920x1080']);
  assert.deepEqual(
    ladder.map((plan) => plan.codecs),
    ['avc1.4d0020,mp4a.40.2', 'avc1.4d0020,mp4a.40.2', 'avc1.4d0020,mp4a.40.2', 'avc1.4d002a,mp4a.40.2', 'avc1.4d002a,mp4a.40.2'],
  );
  assert.deepEqual(
    ladder.map((plan) => plan.level),
    ['3.2', '3.2', '3.2', '4.2', '4.2'],
  );
  assert.ok(
    ladder.every((plan, i) => i === 0 || plan.videoKbps > (ladder[i - 1]?.videoKbps ?? 0)),
    'bit rates rise with size',
  );
});

test('never above the source: a 720p source stops at 720p, an odd size gets even rungs', () => {
  assert.deepEqual(sizes(planLadder({ width: 1280, height: 720, hasAudio: true })), [
    '240p 426x240',
    '360p 640x360',
    '540p 960x540',
    '720p 1280x720',
  ]);
  assert.deepEqual(sizes(planLadder({ width: 1000, height: 563, hasAudio: true })), ['240p 426x240', '360p 640x360', '540p 960x540']);
});

test('a portrait video gets the ladder on its side; a tiny one gets one rendition at its own size; no sound, no AAC', () => {
  assert.deepEqual(sizes(planLadder({ width: 1080, height: 1920, hasAudio: true })).slice(0, 2), ['240p 240x426', '360p 360x640']);
  const tiny = planLadder({ width: 176, height: 145, hasAudio: false });
  assert.deepEqual(sizes(tiny), ['144p 174x144']);
  assert.equal(tiny[0]?.codecs, 'avc1.4d0020');
  assert.equal(tiny[0]?.audioKbps, null);
});
