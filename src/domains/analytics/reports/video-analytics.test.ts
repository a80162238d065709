/**
 * get_video_analytics and get_analytics_daily on hand-made sessions sent through POST /collect, whose
 * answers are worked out by hand: resent batches, overlapping reports, seeks backwards, a viewer on
 * two days, days across a time-zone boundary, date validation, zero data and other workspaces.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { collect, type Event, pageView, viewer } from '../../../../test/helpers/viewing.ts';

/** One page view at `now` (the app's clock must say the same), its batches numbered 1, 2, 3… */
async function session(harness: TestApp, videoId: string, who: string, batches: Event[][], now: Date): Promise<void> {
  const view = pageView(videoId, now);
  for (const [i, events] of batches.entries()) {
    const res = await collect(harness, { token: view.token, viewer_id: viewer(who), sequence: i + 1, events });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
}

const progress = (...ranges: [number, number][]): Event => ({ type: 'progress', ranges });

test('get_video_analytics: totals and zero-filled days follow every definition, from the rollups alone', async (t) => {
  let now = new Date('2026-03-09T10:00:00Z');
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Pricing walkthrough', duration_seconds: 100 });

  // 9 March. Ann: 0–30, a resent batch, then back to 20 and on to 30: 40 s played, 30 distinct (0.3).
  const ann = pageView(videoId, now);
  const send = (sequence: number, events: Event[]) => collect(harness, { token: ann.token, viewer_id: viewer('ann'), sequence, events });
  await send(1, [{ type: 'play', position: 0 }, progress([0, 10])]);
  await send(2, [progress([10, 30])]);
  assert.equal((await send(2, [progress([10, 30])])).body.duplicate, true);
  await send(3, [{ type: 'seek', from: 30, to: 20 }, progress([20, 30]), { type: 'pause', position: 30 }]);
  // Bob: overlapping reports 0–50 and 40–95 (105 s played, 95 distinct: a completion) and a CTA click.
  await session(harness, videoId, 'bob', [[progress([0, 50], [40, 95])], [{ type: 'cta_click', position: 95 }]], now);
  // Ann again for half a second: watch time, but not a view.
  await session(harness, videoId, 'ann', [[progress([0, 0.5])]], now);
  // 10 March: Ann watches it all (a completion); she is one unique viewer across both days.
  now = new Date('2026-03-10T15:00:00Z');
  await session(harness, videoId, 'ann', [[progress([0, 60])], [progress([60, 100])]], now);

  const url = `/v1/videos/${videoId}/analytics?from_date=2026-03-04&to_date=2026-03-10`;
  const res = await harness.request('GET', url, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(
    { ...res.body, daily: undefined },
    {
      video_id: videoId,
      title: 'Pricing walkthrough',
      duration_seconds: 100,
      time_zone: 'UTC',
      from_date: '2026-03-04',
      to_date: '2026-03-10',
      days: 7,
      totals: {
        views: 3,
        unique_viewers: 2,
        watch_time_seconds: 40 + 105 + 0.5 + 100,
        average_engagement: 0.75, // (0.3 + 0.95 + 1) / 3
        completions: 2,
        completion_rate: 0.6667,
        conversions: 1,
        conversion_rate: 0.3333,
        leads: 0,
        revenue: [],
      },
      daily: undefined,
    },
  );
  const zero = {
    views: 0,
    unique_viewers: 0,
    watch_time_seconds: 0,
    average_engagement: 0,
    completions: 0,
    completion_rate: 0,
    conversions: 0,
    conversion_rate: 0,
    leads: 0,
    revenue: [],
  };
  assert.deepEqual(res.body.daily, [
    ...['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08'].map((date) => ({ date, ...zero })),
    {
      date: '2026-03-09',
      views: 2,
      unique_viewers: 2,
      watch_time_seconds: 145.5,
      average_engagement: 0.625,
      completions: 1,
      completion_rate: 0.5,
      conversions: 1,
      conversion_rate: 0.5,
      leads: 0,
      revenue: [],
    },
    {
      date: '2026-03-10',
      views: 1,
      unique_viewers: 1,
      watch_time_seconds: 100,
      average_engagement: 1,
      completions: 1,
      completion_rate: 1,
      conversions: 0,
      conversion_rate: 0,
      leads: 0,
      revenue: [],
    },
  ]);

  // The default window is the 28 days ending today.
  const defaults = await harness.request('GET', `/v1/videos/${videoId}/analytics`, { token: ws.key });
  assert.deepEqual(
    [defaults.body.from_date, defaults.body.to_date, defaults.body.days, defaults.body.daily.length],
    ['2026-02-11', '2026-03-10', 28, 28],
  );
  assert.deepEqual(defaults.body.totals, res.body.totals);
  const oneDay = await harness.request('GET', `/v1/videos/${videoId}/analytics?from_date=2026-03-10&to_date=2026-03-10`, { token: ws.key });
  assert.deepEqual([oneDay.body.totals.views, oneDay.body.totals.unique_viewers, oneDay.body.daily.length], [1, 1, 1]);

  // Reads use only the rollups: without the raw batches and sessions, every answer is the same.
  await harness.database.db.deleteFrom('viewing_batches').where('workspace_id', '=', ws.id).execute();
  await harness.database.db.deleteFrom('viewing_sessions').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual((await harness.request('GET', url, { token: ws.key })).body, res.body);
});

test('days follow the workspace time zone: sessions near midnight, "today" and the daily series', async (t) => {
  let now = new Date('2026-03-01T03:00:00Z'); // 22:00 on 28 February in New York
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  await harness.database.db.updateTable('workspaces').set({ timezone: 'America/New_York' }).where('id', '=', ws.id).execute();
  const videoId = await ws.addVideo({ duration_seconds: 300 });
  const late = pageView(videoId, now);
  await collect(harness, { token: late.token, viewer_id: viewer('owl'), sequence: 1, events: [progress([0, 30])] });

  const first = await harness.request('GET', `/v1/videos/${videoId}/analytics`, { token: ws.key });
  assert.deepEqual([first.body.time_zone, first.body.to_date, first.body.from_date], ['America/New_York', '2026-02-28', '2026-02-01']);
  assert.equal(first.body.daily.at(-1).views, 1);

  // The session goes on past midnight in New York: it still counts on 28 February.
  now = new Date('2026-03-01T05:10:00Z');
  await collect(harness, { token: late.token, viewer_id: viewer('owl'), sequence: 2, events: [progress([30, 200])] });
  // A new page view at 00:30 on 1 March, by the same viewer.
  now = new Date('2026-03-01T05:30:00Z');
  await session(harness, videoId, 'owl', [[progress([0, 10])]], now);

  const both = await harness.request('GET', `/v1/videos/${videoId}/analytics?from_date=2026-02-28&to_date=2026-03-01`, { token: ws.key });
  assert.deepEqual(
    both.body.daily.map((d: { date: string; views: number; watch_time_seconds: number }) => [d.date, d.views, d.watch_time_seconds]),
    [
      ['2026-02-28', 1, 200],
      ['2026-03-01', 1, 10],
    ],
  );
  assert.deepEqual([both.body.totals.views, both.body.totals.unique_viewers], [2, 1]);

  const daily = await harness.request('GET', '/v1/analytics/daily?from=2026-02-27&to=2026-03-01', { token: ws.key });
  assert.equal(daily.status, 200, daily.raw);
  assert.deepEqual(
    daily.body.daily.map((d: { date: string; views: number; videos_watched: number }) => [d.date, d.views, d.videos_watched]),
    [
      ['2026-02-27', 0, 0],
      ['2026-02-28', 1, 1],
      ['2026-03-01', 1, 1],
    ],
  );
  assert.deepEqual([daily.body.time_zone, daily.body.totals.views, daily.body.totals.unique_viewers], ['America/New_York', 2, 1]);

  // In UTC the same two sessions both started on 1 March.
  const utc = await harness.workspace();
  await harness.database.db.updateTable('workspaces').set({ timezone: 'UTC' }).where('id', '=', utc.id).execute();
  const utcVideo = await utc.addVideo({ duration_seconds: 300 });
  now = new Date('2026-03-01T03:00:00Z');
  await session(harness, utcVideo, 'owl', [[progress([0, 30])]], now);
  now = new Date('2026-03-01T05:30:00Z');
  await session(harness, utcVideo, 'owl', [[progress([0, 10])]], now);
  const utcDays = await harness.request('GET', `/v1/videos/${utcVideo}/analytics?from_date=2026-02-28&to_date=2026-03-01`, {
    token: utc.key,
  });
  assert.deepEqual(
    utcDays.body.daily.map((d: { views: number }) => d.views),
    [0, 2],
  );
});

test('get_analytics_daily adds up every video of the workspace and counts a viewer of two videos once', async (t) => {
  const now = new Date('2026-05-20T12:00:00Z');
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const [intro, demo] = [await ws.addVideo({ duration_seconds: 50 }), await ws.addVideo({ duration_seconds: 200 })];
  await session(harness, intro, 'cat', [[progress([0, 50])]], now);
  await session(harness, demo, 'cat', [[progress([0, 20])], [{ type: 'cta_click', position: 20 }]], now);
  await session(harness, demo, 'dan', [[progress([0, 200])]], now);
  const other = await harness.workspace();
  await session(harness, await other.addVideo({ duration_seconds: 50 }), 'eve', [[progress([0, 50])]], now);

  const res = await harness.request('GET', '/v1/analytics/daily?from=2026-05-19', { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  const today = {
    views: 3,
    unique_viewers: 2,
    watch_time_seconds: 270,
    average_engagement: 0.7, // (1 + 0.1 + 1) / 3
    completions: 2,
    completion_rate: 0.6667,
    conversions: 1,
    conversion_rate: 0.3333,
    videos_watched: 2,
    leads: 0,
    revenue: [],
  };
  assert.deepEqual(res.body, {
    time_zone: 'UTC',
    from: '2026-05-19',
    to: '2026-05-20',
    days: 2,
    totals: today,
    daily: [
      {
        date: '2026-05-19',
        views: 0,
        unique_viewers: 0,
        watch_time_seconds: 0,
        average_engagement: 0,
        completions: 0,
        completion_rate: 0,
        conversions: 0,
        conversion_rate: 0,
        videos_watched: 0,
        leads: 0,
        revenue: [],
      },
      { date: '2026-05-20', ...today },
    ],
  });
  const defaults = await harness.request('GET', '/v1/analytics/daily', { token: ws.key });
  assert.deepEqual([defaults.body.from, defaults.body.to, defaults.body.daily.length], ['2026-04-23', '2026-05-20', 28]);
});

test('date windows: backwards, too long, malformed and unknown parameters are 400s naming the fields', async (t) => {
  const harness = await startTestApp(t, { clock: () => new Date('2026-06-15T12:00:00Z') });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo();
  const get = (url: string) => harness.request('GET', url, { token: ws.key });
  const problems = (res: { status: number; body: { error: { details: { errors: unknown[] } } } }) => {
    assert.equal(res.status, 400);
    return res.body.error.details.errors;
  };

  assert.deepEqual(problems(await get(`/v1/videos/${videoId}/analytics?from_date=2026-06-10&to_date=2026-06-01`)), [
    { field: 'from_date', problem: 'must be on or before to_date (2026-06-01)' },
  ]);
  assert.deepEqual(problems(await get(`/v1/videos/${videoId}/analytics?from_date=2026-06-20`)), [
    { field: 'from_date', problem: 'must be on or before to_date (today, 2026-06-15, when not given)' },
  ]);
  assert.deepEqual(problems(await get(`/v1/videos/${videoId}/analytics?from_date=2025-06-14&to_date=2026-06-15`)), [
    {
      field: 'from_date',
      problem: 'must be at most 366 days before to_date (2026-06-15), both days included; the window asked for is 367 days',
    },
  ]);
  const longest = await get(`/v1/videos/${videoId}/analytics?from_date=2025-06-15&to_date=2026-06-15`);
  assert.deepEqual([longest.status, longest.body.days, longest.body.daily.length], [200, 366, 366]);
  assert.deepEqual(
    problems(await get(`/v1/videos/${videoId}/analytics?from_date=2026-02-30&to_date=yesterday`)).map(
      (p) => (p as { field: string }).field,
    ),
    ['from_date', 'to_date'],
  );
  assert.deepEqual(problems(await get('/v1/analytics/daily?from=2026-06-15&to=2026-06-14')), [
    { field: 'from', problem: 'must be on or before to (2026-06-14)' },
  ]);
  assert.deepEqual(
    problems(await get('/v1/analytics/daily?from=2020-01-01')).map((p) => (p as { field: string }).field),
    ['from'],
  );
  assert.deepEqual(
    problems(await get('/v1/analytics/daily?from_date=2026-06-01')).map((p) => (p as { field: string }).field),
    ['from_date'],
  );
  assert.deepEqual(
    problems(await get('/v1/analytics/summary?range=30d')).map((p) => (p as { field: string }).field),
    ['range'],
  );
});

test('zero data: every analytics answer is complete and valid before anyone watches', async (t) => {
  const harness = await startTestApp(t, { clock: () => new Date('2026-06-15T12:00:00Z') });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ status: 'processing', duration_seconds: null });
  const get = async (url: string) => {
    const res = await harness.request('GET', url, { token: ws.key });
    assert.equal(res.status, 200, `${url}: ${res.raw}`);
    return res.body;
  };
  const analytics = await get(`/v1/videos/${videoId}/analytics`);
  assert.equal(analytics.daily.length, 28);
  assert.ok(analytics.daily.every((d: { views: number; average_engagement: number }) => d.views === 0 && d.average_engagement === 0));
  assert.deepEqual([analytics.totals.views, analytics.totals.completion_rate, analytics.duration_seconds], [0, 0, null]);

  const summary = await get('/v1/analytics/summary?range=7d');
  assert.deepEqual(summary.metrics.views, { value: 0, previous: 0, change_percent: null });
  assert.deepEqual(summary.metrics.videos_watched, { value: 0, previous: 0, change_percent: null });
  const daily = await get('/v1/analytics/daily');
  assert.equal(daily.totals.unique_viewers, 0);
});

test('another workspace’s video is not_found for the per-video analytics', async (t) => {
  // A fixed noon, so the session and the summaries read later fall on the same day whenever the test runs.
  const now = new Date('2026-06-15T12:00:00Z');
  const harness = await startTestApp(t, { clock: () => now });
  const [mine, theirs] = [await harness.workspace(), await harness.workspace()];
  const foreign = await theirs.addVideo();
  await session(harness, foreign, 'spy', [[progress([0, 30])]], now);
  for (const path of ['analytics', 'retention', 'key-moments']) {
    const res = await harness.request('GET', `/v1/videos/${foreign}/${path}`, { token: mine.key });
    assert.deepEqual([res.status, res.body.error.code], [404, 'not_found'], path);
    assert.equal(res.body.error.message, `No video with id ${foreign} in this workspace.`);
  }
  // The other workspace's views never reach this workspace's totals.
  const summary = await harness.request('GET', '/v1/analytics/summary', { token: mine.key });
  assert.equal(summary.body.metrics.views.value, 0);
  const theirSummary = await harness.request('GET', '/v1/analytics/summary', { token: theirs.key });
  assert.equal(theirSummary.body.metrics.views.value, 1);
});
