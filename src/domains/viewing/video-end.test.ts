/**
 * Reaching the end of a video (video-end.ts) and what a session makes of it (applyBatch): the player's
 * end and the probed end differ a little, and a viewer who got to the first has watched to the second.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyBatch, type SessionState } from './session-change.ts';
import { END_SLACK_SECONDS, endedTails, rangeEndSlack, toTheEnd } from './video-end.ts';

const fresh = (durationSeconds: number): SessionState => ({
  durationSeconds,
  watched: [],
  playedSeconds: 0,
  isView: false,
  completed: false,
  ctaClicks: 0,
});

test('a range reaches the end within a second of it, and within two slices of a short clip', () => {
  assert.equal(rangeEndSlack(600), END_SLACK_SECONDS);
  assert.equal(rangeEndSlack(5.04), 0.1008);
  assert.deepEqual(toTheEnd([[0, 599.2]], 600), [[0, 600]]);
  assert.deepEqual(toTheEnd([[0, 598.9]], 600), [[0, 598.9]], 'more than a second short is where the viewer stopped');
  assert.deepEqual(toTheEnd([[0, 5]], 5.04), [[0, 5.04]], 'get_video reports 5.04 s as 5');
  assert.deepEqual(toTheEnd([[0, 4.9]], 5.04), [[0, 4.9]], 'a clip’s viewer who stopped 3% short did not finish it');
  assert.deepEqual(toTheEnd([[10, 20]], 60), [[10, 20]]);
});

test('an ended event near the end covers the rest of the video, and one far from it nothing', () => {
  const ended = (position: number) => ({ type: 'ended' as const, position });
  assert.deepEqual(endedTails([ended(4.8)], 5.04), [[4.8, 5.04]], 'the player said so: believed within a second');
  assert.deepEqual(endedTails([ended(5.04), ended(6)], 5.04), [], 'at or past the end there is nothing left');
  assert.deepEqual(endedTails([ended(30)], 60), [], 'an end half-way through is not the video’s end');
  assert.deepEqual(endedTails([{ type: 'pause', position: 59.9 }], 60), []);
});

test('a session that reached the player’s end watched the last slice, once, without seconds it did not play', () => {
  // Probed at 5.04 s; the player's media ends at 5 s (as get_video reports it).
  const { after, delta } = applyBatch(fresh(5.04), [
    { type: 'progress', ranges: [[0, 5]] },
    { type: 'ended', position: 5 },
  ]);
  assert.deepEqual(after.watched, [[0, 5.04]]);
  assert.equal(after.playedSeconds, 5, 'watch time is what was played');
  assert.equal(delta.engagement, 1);
  assert.equal(delta.reach[99], 1);
  assert.equal(delta.plays[99], 1, 'the ended event adds no replay of the last slice');
  assert.ok(delta.reach.every((reached) => reached === 1));

  // The ended event alone, after a range that stopped short of the slack (a seek to the end).
  const seeked = applyBatch(fresh(5.04), [
    { type: 'progress', ranges: [[0, 4.5]] },
    { type: 'seek', from: 4.5, to: 4.9 },
    { type: 'ended', position: 4.9 },
  ]);
  assert.equal(seeked.delta.reach[99], 1, 'reached the end');
  assert.equal(seeked.delta.plays[99], 0, 'but did not play it');
  assert.equal(seeked.delta.reach[92], 0, 'the part skipped is not watched');

  // Stopping short without an ended event is stopping.
  const left = applyBatch(fresh(5.04), [{ type: 'progress', ranges: [[0, 4.5]] }]);
  assert.equal(left.delta.reach[99], 0);
  assert.deepEqual(left.after.watched, [[0, 4.5]]);
});
