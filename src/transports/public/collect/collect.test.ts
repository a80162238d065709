/**
 * POST /collect: the protocol (validation naming every problem, tokens, bots, resends, sizes) and
 * the rollups it maintains, checked against hand-made sessions whose answers are known.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { collect, pageView, viewer, watch } from '../../../../test/helpers/viewing.ts';
import { countViewers, pruneViewingBatches } from '../../../domains/viewing/index.ts';

async function daily(harness: TestApp, videoId: string) {
  return harness.database.db.selectFrom('video_daily_stats').selectAll().where('video_id', '=', videoId).orderBy('day').execute();
}

test('hand-made sessions give the defined views, uniques, watch time, engagement, completions, conversions and heatmap', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 100 });
  // A: 0–30 s, then back to 20 and on to 30 again: 40 s played, 30 distinct; the resent batch is ignored.
  const a = pageView(videoId);
  const send = (sequence: number, events: unknown[]) => collect(harness, { token: a.token, viewer_id: viewer('ann'), sequence, events });
  assert.deepEqual(
    (
      await send(1, [
        { type: 'play', position: 0 },
        { type: 'progress', ranges: [[0, 10]] },
      ])
    ).body,
    { accepted: true, duplicate: false },
  );
  assert.deepEqual((await send(2, [{ type: 'progress', ranges: [[10, 30]] }])).body, { accepted: true, duplicate: false });
  assert.deepEqual((await send(2, [{ type: 'progress', ranges: [[10, 30]] }])).body, { accepted: true, duplicate: true });
  await send(3, [
    { type: 'seek', from: 30, to: 20 },
    { type: 'progress', ranges: [[20, 30]] },
    { type: 'pause', position: 30 },
  ]);
  // B: the same viewer again, half a second: not a view, but its watch time counts.
  await watch(harness, videoId, viewer('ann'), [[{ type: 'progress', ranges: [[0, 0.5]] }]]);
  // C: another viewer watches 95% in overlapping reports and clicks the call to action at 95 s.
  await watch(harness, videoId, viewer('bob'), [
    [
      { type: 'progress', ranges: [[0, 50]] },
      { type: 'progress', ranges: [[40, 95]] },
    ],
    [
      { type: 'cta_click', position: 95, label: 'Book a call' },
      { type: 'ended', position: 95 },
    ],
  ]);

  const [day, ...more] = await daily(harness, videoId);
  assert.equal(more.length, 0);
  assert.ok(day);
  assert.equal(day.views, 2);
  assert.equal(day.unique_viewers, 2);
  assert.equal(countViewers(day.viewer_sketch), 2);
  assert.equal(day.watch_time_seconds, 40 + 0.5 + 105);
  assert.ok(Math.abs(day.engagement_sum - (0.3 + 0.95)) < 1e-9);
  assert.equal(day.completions, 1);
  assert.equal(day.conversions, 1);

  const heatmap = await harness.database.db
    .selectFrom('video_heatmaps')
    .selectAll()
    .where('video_id', '=', videoId)
    .executeTakeFirstOrThrow();
  assert.equal(heatmap.views, 2);
  assert.deepEqual([heatmap.reach[0], heatmap.reach[29], heatmap.reach[30], heatmap.reach[94], heatmap.reach[95]], [2, 2, 1, 1, 0]);
  // Slice 25: A twice (10–30 and 20–30), C once; slice 45: C twice (0–50 and 40–95).
  assert.deepEqual([heatmap.plays[0], heatmap.plays[25], heatmap.plays[45], heatmap.plays[96]], [2, 3, 2, 0]);
  assert.equal(heatmap.cta_clicks[95], 1);
  assert.equal(
    heatmap.cta_clicks.reduce((sum, n) => sum + n, 0),
    1,
  );

  const lifetime = await harness.database.db
    .selectFrom('video_stats')
    .selectAll()
    .where('video_id', '=', videoId)
    .executeTakeFirstOrThrow();
  assert.deepEqual([lifetime.views, lifetime.unique_viewers, lifetime.completions, lifetime.conversions], [2, 2, 1, 1]);
  assert.equal(lifetime.watch_time_seconds, 145.5);
  const video = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.equal(video.body.stats.views, 2);
  assert.equal(video.body.views, 2);

  const sessions = await harness.database.db
    .selectFrom('viewing_sessions')
    .selectAll()
    .where('id', '=', a.sessionId)
    .executeTakeFirstOrThrow();
  assert.deepEqual(sessions.watched, [[0, 30]]);
  assert.deepEqual([sessions.played_seconds, sessions.is_view, sessions.completed, sessions.last_sequence], [40, true, false, 3]);
  const batches = await harness.database.db
    .selectFrom('viewing_batches')
    .select('sequence')
    .where('session_id', '=', a.sessionId)
    .execute();
  assert.deepEqual(batches.map((b) => b.sequence).sort(), [1, 2, 3], 'raw batches are kept once each');
});

test('a session counts on the workspace-local day it started, even when it goes on past midnight', async (t) => {
  let now = new Date('2026-03-01T04:59:00Z'); // 23:59 on 28 February in New York
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  await harness.database.db.updateTable('workspaces').set({ timezone: 'America/New_York' }).where('id', '=', ws.id).execute();
  const videoId = await ws.addVideo({ duration_seconds: 300 });
  const view = pageView(videoId, now);
  const send = (sequence: number, ranges: [number, number][]) =>
    collect(harness, { token: view.token, viewer_id: viewer('night'), sequence, events: [{ type: 'progress', ranges }] });
  assert.equal((await send(1, [[0, 30]])).status, 200);
  now = new Date('2026-03-01T05:02:00Z'); // 00:02 on 1 March
  assert.equal((await send(2, [[30, 200]])).status, 200);
  const days = await daily(harness, videoId);
  assert.deepEqual(
    days.map((d) => [d.day, d.views, d.watch_time_seconds]),
    [['2026-02-28', 1, 200]],
  );
  // A new page view after midnight belongs to 1 March.
  await watch(harness, videoId, viewer('night'), [[{ type: 'progress', ranges: [[0, 5]] }]]);
  assert.deepEqual(
    (await daily(harness, videoId)).map((d) => [d.day, d.views, d.unique_viewers]),
    [
      ['2026-02-28', 1, 1],
      ['2026-03-01', 1, 1],
    ],
  );
});

test('bad batches are refused with every problem named, and change nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 60 });
  const { token } = pageView(videoId);

  const shape = await collect(harness, { token, viewer_id: 'short', sequence: 0, events: [{ type: 'teleport' }], extra: 1 });
  assert.equal(shape.status, 400);
  const fields = shape.body.error.details.errors.map((e: { field: string }) => e.field).sort();
  assert.deepEqual(fields, ['events[0].type', 'extra', 'sequence', 'viewer_id']);

  const times = await collect(harness, {
    token,
    viewer_id: viewer('ann'),
    sequence: 1,
    events: [
      { type: 'progress', ranges: [[10, 5]] },
      { type: 'progress', ranges: [[0, 75]] },
      { type: 'play' },
      { type: 'seek', from: 1, to: 90 },
    ],
  });
  assert.equal(times.status, 400);
  assert.deepEqual(times.body.error.details.errors, [
    { field: 'events[0].ranges[0]', problem: 'must start before it ends' },
    { field: 'events[1].ranges[0]', problem: "must be within the video's 60 seconds" },
    { field: 'events[2].position', problem: 'is required for a play event' },
    { field: 'events[3].to', problem: "must be within the video's 60 seconds" },
  ]);
  const tooMuch = await collect(harness, {
    token,
    viewer_id: viewer('ann'),
    sequence: 1,
    events: Array.from({ length: 20 }, () => ({ type: 'progress', ranges: [[0, 59]] })),
  });
  assert.deepEqual([tooMuch.status, tooMuch.body.error.details.errors[0].field], [400, 'events']);
  const many = await collect(harness, {
    token,
    viewer_id: viewer('ann'),
    sequence: 1,
    events: Array.from({ length: 51 }, () => ({ type: 'play', position: 1 })),
  });
  assert.equal(many.status, 400);

  assert.deepEqual((await collect(harness, '{"token":')).status, 400);
  const huge = await collect(harness, {
    token,
    viewer_id: viewer('ann'),
    sequence: 1,
    events: [{ type: 'cta_click', position: 1, label: 'x'.repeat(70_000) }],
  });
  assert.deepEqual([huge.status, huge.body.error.code], [413, 'payload_too_large']);

  for (const table of ['viewing_sessions', 'viewing_batches', 'video_daily_stats', 'video_heatmaps'] as const) {
    const rows = await harness.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', ws.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(rows.n), 0, `${table} stays empty`);
  }
});

test('tokens bind the video and expire; bots are dropped; only watchable videos collect; sendBeacon text bodies work', async (t) => {
  let now = new Date('2026-06-01T12:00:00Z');
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 60 });
  const batch = (token: string) => ({ token, viewer_id: viewer('ann'), sequence: 1, events: [{ type: 'progress', ranges: [[0, 5]] }] });
  const view = pageView(videoId, now);

  const forged = await collect(harness, batch(view.token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))));
  assert.deepEqual([forged.status, forged.body.error.message], [403, 'The viewing token is not valid.']);
  const otherVideo = await collect(harness, batch(view.token.replace(videoId, await ws.addVideo())));
  assert.equal(otherVideo.status, 403, 'a token cannot be moved to another video');

  assert.equal(
    (await collect(harness, batch(view.token), { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).status,
    204,
  );
  assert.equal((await collect(harness, batch(view.token), { 'user-agent': 'curl/8.5.0' })).status, 204);
  assert.equal(
    await harness.database.db.selectFrom('viewing_batches').select('session_id').where('workspace_id', '=', ws.id).executeTakeFirst(),
    undefined,
    'bots leave nothing',
  );

  const beacon = await collect(harness, batch(view.token), { 'content-type': 'text/plain;charset=UTF-8' });
  assert.deepEqual([beacon.status, beacon.body], [200, { accepted: true, duplicate: false }]);

  now = new Date(now.getTime() + 25 * 60 * 60 * 1000);
  const expired = await collect(harness, { ...batch(view.token), sequence: 2 });
  assert.deepEqual([expired.status, expired.body.error.message], [403, 'The viewing token has expired; reload the page.']);

  for (const fields of [{ archived: true }, { status: 'processing' as const }]) {
    const hidden = await ws.addVideo({ duration_seconds: 60, ...fields });
    const res = await collect(harness, batch(pageView(hidden, now).token));
    assert.deepEqual([res.status, res.body.error.code], [404, 'not_found']);
  }
});

test('raw batches past the retention period are pruned; the rollups keep counting them', async (t) => {
  let now = new Date('2026-01-01T10:00:00Z');
  // Pruning goes over every workspace's batches: a database of its own, so the count is this test's.
  const harness = await startTestApp(t, { clock: () => now, isolated: true });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 60 });
  await watch(harness, videoId, viewer('old'), [[{ type: 'progress', ranges: [[0, 10]] }], [{ type: 'progress', ranges: [[10, 20]] }]]);
  now = new Date('2026-03-01T10:00:00Z');
  const recent = await watch(harness, videoId, viewer('new'), [[{ type: 'progress', ranges: [[0, 30]] }]]);
  assert.equal(await pruneViewingBatches(harness.database.db, 30, now), 2);
  const left = await harness.database.db.selectFrom('viewing_batches').select('session_id').execute();
  assert.deepEqual(left, [{ session_id: recent }]);
  assert.equal(await pruneViewingBatches(harness.database.db, 30, now), 0);
  const lifetime = await harness.database.db
    .selectFrom('video_stats')
    .select(['views', 'watch_time_seconds'])
    .where('video_id', '=', videoId)
    .executeTakeFirstOrThrow();
  assert.deepEqual(lifetime, { views: 2, watch_time_seconds: 50 });
});

test('a click on the call to action converts only once the session is a view', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ duration_seconds: 60 });
  const view = pageView(videoId);
  const send = (sequence: number, events: unknown[]) =>
    collect(harness, { token: view.token, viewer_id: viewer('eager'), sequence, events });
  await send(1, [{ type: 'cta_click', position: 0.2 }]);
  const conversions = async () =>
    (await harness.database.db
      .selectFrom('video_daily_stats')
      .select(['views', 'conversions'])
      .where('video_id', '=', videoId)
      .executeTakeFirst()) ?? null;
  assert.deepEqual(await conversions(), { views: 0, conversions: 0 });
  await send(2, [{ type: 'progress', ranges: [[0, 4]] }]);
  assert.deepEqual(await conversions(), { views: 1, conversions: 1 });
  await send(3, [{ type: 'cta_click', position: 4 }]);
  assert.deepEqual(await conversions(), { views: 1, conversions: 1 }, 'one conversion per view, however many clicks');
});
