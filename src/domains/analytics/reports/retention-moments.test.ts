/**
 * get_video_retention and get_video_key_moments on hand-made viewing with a known shape: a cliff
 * where half the viewers leave, a stretch people replay, call-to-action clicks, and a transcript
 * saying what was on screen then.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { collect, type Event, pageView, viewer } from '../../../../test/helpers/viewing.ts';
import { saveTranscript } from '../../transcripts/index.ts';

async function session(harness: TestApp, videoId: string, who: string, batches: Event[][]): Promise<void> {
  const view = pageView(videoId);
  for (const [i, events] of batches.entries()) {
    const res = await collect(harness, { token: view.token, viewer_id: viewer(who), sequence: i + 1, events });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
}

const progress = (...ranges: [number, number][]): Event => ({ type: 'progress', ranges });
const replay = (from: number, to: number): Event[] => [{ type: 'seek', from: to, to: from }, progress([from, to])];

test('get_video_retention: the curve, average percentage viewed, drop-offs and rewatch peaks of known viewing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Setup guide', duration_seconds: 100 }); // 1-second slices

  const empty = await harness.request('GET', `/v1/videos/${videoId}/retention`, { token: ws.key });
  assert.equal(empty.status, 200, empty.raw);
  assert.deepEqual(empty.body, {
    video_id: videoId,
    title: 'Setup guide',
    duration_seconds: 100,
    views: 0,
    slices: 100,
    slice_seconds: 1,
    average_percentage_viewed: 0,
    curve: [],
    opening_drop: 0,
    drop_offs: [],
    rewatch_peaks: [],
    note: 'No views yet: the curve fills in once someone plays the video for at least 1 second.',
  });

  // Ten views. All watch 0–50; three of them go back and replay 20–30; five go on to the end.
  for (let i = 0; i < 10; i++) {
    const batches: Event[][] = [[progress([0, 50])]];
    if (i < 3) batches.push(replay(20, 30));
    if (i >= 5) batches.push([progress([50, 100])]);
    await session(harness, videoId, `r${i}`, batches);
  }
  const res = await harness.request('GET', `/v1/videos/${videoId}/retention`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  const body = res.body;
  assert.deepEqual([body.views, body.average_percentage_viewed, body.opening_drop, body.note], [10, 75, 0, null]);
  assert.equal(body.curve.length, 100);
  assert.deepEqual(body.curve[0], { slice: 0, start_seconds: 0, end_seconds: 1, retention: 1, rewatch: 1 });
  assert.deepEqual(body.curve[25], { slice: 25, start_seconds: 25, end_seconds: 26, retention: 1, rewatch: 1.3 });
  assert.deepEqual(body.curve[49], { slice: 49, start_seconds: 49, end_seconds: 50, retention: 1, rewatch: 1 });
  assert.deepEqual(body.curve[50], { slice: 50, start_seconds: 50, end_seconds: 51, retention: 0.5, rewatch: 0.5 });
  assert.deepEqual(body.curve[99], { slice: 99, start_seconds: 99, end_seconds: 100, retention: 0.5, rewatch: 0.5 });
  // Half leave as the 50th second passes: between the middles of slices 49 and 50.
  assert.deepEqual(body.drop_offs, [{ start_seconds: 49.5, end_seconds: 50.5, from_retention: 1, to_retention: 0.5, fall: 0.5 }]);
  // Slices 20–29 are played 1.3 times per view; the median slice 0.75 times; 30% of views replayed them.
  assert.deepEqual(body.rewatch_peaks, [{ start_seconds: 20, end_seconds: 30, rewatch: 1.3, median_rewatch: 0.75, replay_share: 0.3 }]);

  // Below the minimum sample, key moments say so instead of guessing.
  const moments = await harness.request('GET', `/v1/videos/${videoId}/key-moments`, { token: ws.key });
  assert.equal(moments.status, 200, moments.raw);
  assert.deepEqual([moments.body.views, moments.body.minimum_views, moments.body.moments], [10, 20, []]);
  assert.match(moments.body.note, /10 views so far; moments are reported from 20 views/);
});

test('the opening dip is not a drop-off, and replays of the first slice are not a peak', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 200 }); // 2-second slices
  // Four of ten viewers leave within the first slice (they still played ≥ 1 s); two restart at 0.
  for (let i = 0; i < 10; i++) {
    if (i < 4) await session(harness, videoId, `o${i}`, [[progress([0, 1.5])]]);
    else if (i < 6) await session(harness, videoId, `o${i}`, [[progress([0, 2])], replay(0, 2), [progress([2, 200])]]);
    else await session(harness, videoId, `o${i}`, [[progress([0, 200])]]);
  }
  const res = await harness.request('GET', `/v1/videos/${videoId}/retention`, { token: ws.key });
  assert.deepEqual([res.body.curve[0].retention, res.body.curve[1].retention, res.body.curve[0].rewatch], [1, 0.6, 1.2]);
  assert.equal(res.body.opening_drop, 0.4);
  assert.deepEqual(res.body.drop_offs, []);
  assert.deepEqual(res.body.rewatch_peaks, []);
});

test('get_video_key_moments ranks drop-offs, rewatch peaks and CTA clicks, with reasons and the words spoken', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Product tour', duration_seconds: 200 }); // 2-second slices
  await saveTranscript(
    harness.database.db,
    ws.id,
    videoId,
    {
      source: 'embedded',
      language: 'en',
      segments: [
        { start_seconds: 0, end_seconds: 5, text: 'Welcome to the tour.' },
        { start_seconds: 55, end_seconds: 60, text: 'Now, about pricing.' },
        { start_seconds: 100, end_seconds: 110, text: 'Here is the shortcut that saves an hour.' },
        { start_seconds: 148, end_seconds: 152, text: 'Book a call below.' },
      ],
    },
    new Date(),
  );
  // Twenty views: all watch the first minute; 8 leave there; of the 12 who stay, 7 replay 100–110 and
  // 5 click the call to action at 150 s.
  for (let i = 0; i < 20; i++) {
    const batches: Event[][] = [[progress([0, 60])]];
    if (i >= 8) batches.push([progress([60, 200])]);
    if (i >= 8 && i < 15) batches.push(replay(100, 110));
    if (i >= 15) batches.push([{ type: 'cta_click', position: 150 }]);
    await session(harness, videoId, `k${i}`, batches);
  }
  const res = await harness.request('GET', `/v1/videos/${videoId}/key-moments`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(
    [res.body.views, res.body.minimum_views, res.body.slices, res.body.has_transcript, res.body.note],
    [20, 20, 100, true, null],
  );
  assert.match(res.body.rules, /once the video has 20 views/);
  assert.deepEqual(res.body.moments, [
    {
      rank: 1,
      kind: 'drop_off',
      start_seconds: 59,
      end_seconds: 61,
      score: 0.4,
      views_involved: 8,
      reason: '40% of views stopped watching between 0:59 and 1:01: the share still watching falls from 100% to 60%.',
      transcript: 'Now, about pricing.',
    },
    {
      rank: 2,
      kind: 'rewatch_peak',
      start_seconds: 100,
      end_seconds: 110,
      score: 0.35,
      views_involved: 7,
      reason: '35% of views played 1:40–1:50 again: 0.95 plays per view there, against 0.60 for the median part of the video.',
      transcript: 'Here is the shortcut that saves an hour.',
    },
    {
      rank: 3,
      kind: 'cta_clicks',
      start_seconds: 150,
      end_seconds: 152,
      score: 0.25,
      views_involved: 5,
      reason: '5 call-to-action clicks during 2:30–2:32, 25 per 100 views.',
      transcript: 'Book a call below.',
    },
  ]);

  // The retention view of the same video agrees.
  const retention = await harness.request('GET', `/v1/videos/${videoId}/retention`, { token: ws.key });
  assert.deepEqual(retention.body.drop_offs, [{ start_seconds: 59, end_seconds: 61, from_retention: 1, to_retention: 0.6, fall: 0.4 }]);
  assert.equal(retention.body.rewatch_peaks[0].replay_share, 0.35);
});

test('key moments without a transcript, and of an evenly watched video', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 40 });
  for (let i = 0; i < 20; i++) await session(harness, videoId, `e${i}`, [[progress([0, 40])]]);
  const res = await harness.request('GET', `/v1/videos/${videoId}/key-moments`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual([res.body.views, res.body.has_transcript, res.body.moments], [20, false, []]);
  assert.match(res.body.note, /evenly/);
});

test('get_video_retention: a viewer who watched to the end covers the last slice, whatever the player’s length', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  // Probed lengths that get_video reports rounded (5.04 → 5, 12.345 → 12.3), and a player whose media
  // ends half a second early on a longer video; the slack is two slices of a short clip, a second of a long one.
  for (const [probed, playerShort] of [
    [5.04, 0],
    [12.345, 0],
    [60, 0],
    [60, 0.5],
  ] as const) {
    const videoId = await ws.addVideo({ title: `Clip ${probed}`, duration_seconds: probed });
    const reported = (await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key })).body.duration_seconds as number;
    const end = reported - playerShort;
    const tag = `${String(probed).replace('.', '_')}_${playerShort * 10}`;
    // One viewer to the end with an ended event, one to the end without (its ended batch lost), one to the middle.
    await session(harness, videoId, `end${tag}`, [[progress([0, end / 2])], [progress([end / 2, end]), { type: 'ended', position: end }]]);
    await session(harness, videoId, `range${tag}`, [[progress([0, end])]]);
    await session(harness, videoId, `half${tag}`, [[progress([0, reported / 2])]]);

    const res = await harness.request('GET', `/v1/videos/${videoId}/retention`, { token: ws.key });
    assert.equal(res.status, 200, res.raw);
    const curve = res.body.curve.map((point: { retention: number }) => point.retention);
    assert.equal(res.body.views, 3);
    assert.deepEqual(curve.slice(51), new Array(49).fill(0.6667), `${probed} s, the player ${playerShort} s short: ${curve.slice(51)}`);
    assert.equal(res.body.curve[99].rewatch, 0.6667, 'reaching the end is no replay of it');
    assert.deepEqual(
      res.body.drop_offs.map((drop: { start_seconds: number }) => drop.start_seconds).length,
      1,
      'one drop-off, in the middle',
    );
    const analytics = await harness.request('GET', `/v1/videos/${videoId}/analytics`, { token: ws.key });
    assert.equal(analytics.status, 200, analytics.raw);
    assert.equal(analytics.body.totals.completions, 2, analytics.raw);
    const played = 2 * end + reported / 2;
    assert.ok(
      Math.abs(analytics.body.totals.watch_time_seconds - played) <= 0.05 + 1e-9,
      `watch time is what was played: ${played}, not ${analytics.body.totals.watch_time_seconds}`,
    );
  }
});
