/**
 * compare_videos (fair ranking: a 3-view perfect video against a 200-view good one), list_changes and
 * get_analytics_summary on hand-made viewing spread over two weeks, with status events.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { videoEventData } from '../../../../test/helpers/events.ts';
import { collectUnfolded, type Event, foldEverything, pageView, viewer } from '../../../../test/helpers/viewing.ts';
import { recordEvent } from '../../../db/outbox.ts';

/** One session of one batch, stored; the caller folds (foldEverything) once a group is sent. */
async function session(harness: TestApp, videoId: string, who: string, events: Event[], now = new Date()): Promise<void> {
  const view = pageView(videoId, now);
  const res = await collectUnfolded(harness, { token: view.token, viewer_id: viewer(who), sequence: 1, events });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

const watched = (seconds: number, click = false): Event[] => [
  { type: 'progress', ranges: [[0, seconds]] },
  ...(click ? [{ type: 'cta_click' as const, position: seconds }] : []),
];

// 200 views through /collect take a while on a busy machine.
const SLOW = { timeout: 300_000 };

test('compare_videos: a 3-view perfect video does not beat a 200-view good one', SLOW, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const perfect = await ws.addVideo({ title: 'Perfect teaser', duration_seconds: 100 });
  const good = await ws.addVideo({ title: 'Good demo', duration_seconds: 100 });
  const unwatched = await ws.addVideo({ title: 'New upload', duration_seconds: 100 });
  for (let i = 0; i < 3; i++) await session(harness, perfect, `p${i}_`, watched(100, true));
  // Good: 120 of 200 watch it all, 80 watch half; 20 click. Sent ten at a time, each ten folded together.
  for (let i = 0; i < 200; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, k) => i + k).map((n) => session(harness, good, `g${n}_`, watched(n < 120 ? 100 : 50, n < 20))),
    );
    await foldEverything(harness.database.db);
  }

  const res = await harness.request('POST', '/v1/videos/compare', { token: ws.key, body: { video_ids: [perfect, unwatched, good] } });
  assert.equal(res.status, 200, res.raw);
  const ranked = res.body.videos;
  assert.deepEqual(
    ranked.map((v: { title: string; rank: number }) => [v.rank, v.title]),
    [
      [1, 'Good demo'],
      [2, 'Perfect teaser'],
      [3, 'New upload'],
    ],
  );
  // The workspace: 203 views; engagement (3 + 120 + 40) / 203, completions 123 / 203, conversions 23 / 203.
  const average = { average_engagement: 163 / 203, completion_rate: 123 / 203, conversion_rate: 23 / 203 };
  type Name = keyof typeof average;
  const names = Object.keys(average) as Name[];
  const weights = { average_engagement: 0.4, completion_rate: 0.3, conversion_rate: 0.3 };
  const cautious = (views: number, own: Record<Name, number>, name: Name) => {
    const adjusted = (views * own[name] + 50 * average[name]) / (views + 50);
    return adjusted - 2 * Math.sqrt((adjusted * (1 - adjusted)) / (views + 51));
  };
  const score = (views: number, own: Record<Name, number>) =>
    Math.round(1000 * names.reduce((sum, name) => sum + (weights[name] * cautious(views, own, name)) / average[name], 0)) / 10;
  const [goodRow, perfectRow, newRow] = ranked;
  assert.equal(goodRow.score, score(200, { average_engagement: 0.8, completion_rate: 0.6, conversion_rate: 0.1 }));
  assert.equal(perfectRow.score, score(3, { average_engagement: 1, completion_rate: 1, conversion_rate: 1 }));
  assert.equal(newRow.score, score(0, { average_engagement: 0, completion_rate: 0, conversion_rate: 0 }));
  assert.ok(goodRow.score > perfectRow.score + 2, `${goodRow.score} vs ${perfectRow.score}`);
  const adjusted = (3 + 50 * (123 / 203)) / 53;
  const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
  assert.deepEqual(perfectRow.metrics.completion_rate, {
    value: 1,
    adjusted: round(adjusted, 4),
    cautious: round(cautious(3, { average_engagement: 1, completion_rate: 1, conversion_rate: 1 }, 'completion_rate'), 4),
    workspace_average: round(123 / 203, 4),
    index: round(cautious(3, { average_engagement: 1, completion_rate: 1, conversion_rate: 1 }, 'completion_rate') / (123 / 203), 3),
  });
  assert.deepEqual([perfectRow.views, perfectRow.evidence_weight, goodRow.evidence_weight], [3, 0.0566, 0.8]);
  assert.match(perfectRow.why, /^Rank 2 of 3 with a score of [\d.]+\. Only 3 views: its own rates carry 6% of the weight/);
  assert.match(goodRow.why, /200 views: its own rates carry 80% of the weight\. Engagement 80% \(cautiously 75%, workspace 80%\)/);
  assert.match(newRow.why, /No views yet/);
  assert.deepEqual([res.body.method.prior_views, res.body.method.caution], [50, 2]);
});

test('compare_videos: 2–20 distinct ids, all of this workspace, or a 4xx naming the problem', async (t) => {
  const harness = await startTestApp(t);
  const [ws, other] = [await harness.workspace(), await harness.workspace()];
  const [a, b] = [await ws.addVideo(), await ws.addVideo()];
  const foreign = await other.addVideo();
  const compare = (video_ids: unknown) => harness.request('POST', '/v1/videos/compare', { token: ws.key, body: { video_ids } });

  const missing = await compare([a, foreign]);
  assert.deepEqual([missing.status, missing.body.error.code], [404, 'not_found']);
  assert.equal(missing.body.error.message, `No video with id ${foreign} in this workspace.`);
  assert.deepEqual(missing.body.error.details, { missing_video_ids: [foreign] });
  for (const [ids, problem] of [
    [[a], 'must list at least 2 items'],
    [[a, a], 'must not list the same value twice (items 0 and 1 are the same)'],
    [[a, a.toUpperCase()], 'must not list the same video twice (ids are not case-sensitive)'],
    [Array.from({ length: 21 }, () => crypto.randomUUID()), 'lists 21 items; at most 20 are accepted'],
  ] as const) {
    const res = await compare(ids);
    assert.equal(res.status, 400, res.raw);
    assert.deepEqual(res.body.error.details.errors[0], { field: 'video_ids', problem });
  }
  const ok = await compare([b, a]);
  assert.equal(ok.status, 200, ok.raw);
  assert.deepEqual(
    ok.body.videos.map((v: { score: number; video_id: string }) => [v.score, v.video_id]),
    [
      [0, b],
      [0, a],
    ],
  );
  assert.match(ok.body.videos[0].why, /No views in the workspace yet, so nothing tells the videos apart\./);
});

test('list_changes and get_analytics_summary: movers, status events, unusual drops and the period before', SLOW, async (t) => {
  let now = new Date('2026-03-20T12:00:00Z');
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const rising = await ws.addVideo({ title: 'Rising', duration_seconds: 100 });
  const falling = await ws.addVideo({ title: 'Falling', duration_seconds: 100 });
  const tiny = await ws.addVideo({ title: 'Tiny', duration_seconds: 100 });
  const slipping = await ws.addVideo({ title: 'Slipping', duration_seconds: 100 });
  const broken = await ws.addVideo({ title: 'Broken upload', status: 'failed', duration_seconds: null });
  const at = (day: string) => new Date(`${day}T12:00:00Z`);
  const views = async (videoId: string, day: string, names: string[], seconds = 100) => {
    now = at(day);
    for (let i = 0; i < names.length; i += 10) {
      await Promise.all(names.slice(i, i + 10).map((name) => session(harness, videoId, name, watched(seconds), now)));
      await foldEverything(harness.database.db);
    }
  };
  // The trailing _ keeps viewer('q1') and viewer('q10') apart (viewer ids are padded with zeros).
  const people = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}_`);
  // Previous period, 7–13 March: 70 views, 10 a day on average.
  await views(rising, '2026-03-08', people('p', 3));
  await views(falling, '2026-03-09', people('q', 46));
  await views(tiny, '2026-03-10', people('r', 1));
  await views(slipping, '2026-03-11', people('s', 20));
  // This period, 14–20 March: 52 views. The same 20 people watch Rising and Slipping.
  await views(slipping, '2026-03-17', people('a', 20), 10);
  await views(rising, '2026-03-18', people('a', 20));
  await views(falling, '2026-03-19', people('b', 10));
  await views(tiny, '2026-03-20', people('c', 2));
  const db = harness.database.db;
  await recordEvent(db, { workspaceId: ws.id, type: 'video.ready', data: await videoEventData(db, ws.id, tiny), at: at('2026-03-01') });
  await recordEvent(db, { workspaceId: ws.id, type: 'video.ready', data: await videoEventData(db, ws.id, rising), at: at('2026-03-18') });
  const reason = 'The file is not a video.';
  await recordEvent(db, {
    workspaceId: ws.id,
    type: 'video.failed',
    data: { ...(await videoEventData(db, ws.id, broken)), failure_reason: reason },
    at: at('2026-03-19'),
  });
  now = new Date('2026-03-20T18:00:00Z');

  const res = await harness.request('GET', '/v1/changes', { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  const body = res.body;
  assert.deepEqual(
    [body.days, body.time_zone, body.period, body.previous_period],
    [7, 'UTC', { from_date: '2026-03-14', to_date: '2026-03-20', days: 7 }, { from_date: '2026-03-07', to_date: '2026-03-13', days: 7 }],
  );
  assert.deepEqual(body.views, { value: 52, previous: 70, change_percent: -25.7 });
  assert.deepEqual(body.movers_up, [
    { video_id: rising, title: 'Rising', views: 20, previous_views: 3, change: 17, change_percent: 566.7 },
  ]);
  assert.deepEqual(body.movers_down, [
    { video_id: falling, title: 'Falling', views: 10, previous_views: 46, change: -36, change_percent: -78.3 },
  ]);
  assert.deepEqual(body.became_ready, [{ video_id: rising, title: 'Rising', at: '2026-03-18T12:00:00.000Z', reason: null }]);
  assert.deepEqual(body.failed, [{ video_id: broken, title: 'Broken upload', at: '2026-03-19T12:00:00.000Z', reason }]);
  assert.deepEqual(
    body.unusual_drops.map(
      (d: { kind: string; date: string | null; title: string | null; metric: string; value: number; baseline: number }) => [
        d.kind,
        d.date ?? d.title,
        d.metric,
        d.value,
        d.baseline,
      ],
    ),
    [
      ['quiet_day', '2026-03-14', 'views', 0, 10],
      ['quiet_day', '2026-03-15', 'views', 0, 10],
      ['quiet_day', '2026-03-16', 'views', 0, 10],
      ['rate_drop', 'Slipping', 'completion_rate', 0, 1],
      ['rate_drop', 'Slipping', 'average_engagement', 0.1, 1],
    ],
  );
  assert.deepEqual(body.summary.slice(0, 5), [
    '52 views in the last 7 days, down 25.7% from 70 in the 7 days before.',
    'Biggest rise: “Rising”, 20 views against 3.',
    'Biggest fall: “Falling”, 10 views against 46.',
    '1 video became ready: “Rising”.',
    `1 video failed processing: “Broken upload” (${reason}).`,
  ]);
  assert.match(body.summary[5], /^Only 0 views on 2026-03-14, against 10 a day in the previous period/);

  const summary = await harness.request('GET', '/v1/analytics/summary?range=7d', { token: ws.key });
  assert.equal(summary.status, 200, summary.raw);
  assert.deepEqual([summary.body.range, summary.body.period, summary.body.previous_period], ['7d', body.period, body.previous_period]);
  const m = summary.body.metrics;
  assert.deepEqual(m.views, { value: 52, previous: 70, change_percent: -25.7 });
  assert.deepEqual(m.unique_viewers, { value: 32, previous: 70, change_percent: -54.3 });
  assert.deepEqual(m.videos_watched, { value: 4, previous: 4, change_percent: 0 });
  assert.deepEqual(m.completions, { value: 32, previous: 70, change_percent: -54.3 });
  assert.deepEqual(m.average_engagement, { value: 0.6538, previous: 1, change_percent: -34.6 }); // (32 + 2) / 52
  assert.deepEqual(m.watch_time_seconds, { value: 3400, previous: 7000, change_percent: -51.4 });
  const month = await harness.request('GET', '/v1/analytics/summary', { token: ws.key });
  assert.deepEqual([month.body.range, month.body.metrics.views.value, month.body.metrics.views.previous], ['28d', 122, 0]);
  assert.equal(month.body.metrics.views.change_percent, null);

  // Over one day: today so far against yesterday. Tiny's 0 → 2 is no news; Falling's 10 → 0 is.
  const today = await harness.request('GET', '/v1/changes?days=1', { token: ws.key });
  assert.deepEqual(today.body.views, { value: 2, previous: 10, change_percent: -80 });
  assert.deepEqual(today.body.movers_up, []);
  assert.deepEqual(
    today.body.movers_down.map((m: { title: string; change: number }) => [m.title, m.change]),
    [['Falling', -10]],
  );
  assert.equal(today.body.summary[0], '2 views today so far, down 80% from 10 yesterday.');
  for (const days of ['0', '91', 'week']) {
    const bad = await harness.request('GET', `/v1/changes?days=${days}`, { token: ws.key });
    assert.deepEqual([bad.status, bad.body.error.details.errors[0].field], [400, 'days']);
  }
});

test('list_changes on a quiet workspace says so', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const res = await harness.request('GET', '/v1/changes?days=30', { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(res.body.summary, [
    'No views in the last 30 days, and none in the 30 days before.',
    'Nothing else stands out: no video moved by 10+ views and 20%+, none became ready or failed, and nothing dropped unusually.',
  ]);
});
