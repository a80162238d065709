/**
 * Numbers as the API reports them: the rounding rules on their own, then one video whose stored sums
 * carry floating-point noise, read through get_video, list_videos and get_video_analytics, which must
 * report the same figures, rounded the same way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.ts';
import { emptySketch } from '../../domains/viewing/index.ts';
import { changePercent, percent, round, seconds, secondsOrNull, share, shareOf } from './reported-numbers.ts';

test('seconds to tenths, shares to four decimals within 0–1, percentages to one decimal', () => {
  assert.equal(seconds(26630.999000000007), 26631);
  assert.equal(seconds(145.55), 145.6);
  assert.equal(seconds(0.04), 0);
  assert.equal(secondsOrNull(null), null);
  assert.equal(secondsOrNull(184.567), 184.6);
  assert.equal(share(0.40067587008759004), 0.4007);
  assert.equal(share(1.0000000000000002), 1);
  assert.equal(share(-0.00001), 0);
  assert.equal(shareOf(3, 7), 0.4286);
  assert.equal(shareOf(5, 0), 0, 'no views: no rate');
  assert.equal(percent(-34.61538), -34.6);
  assert.equal(changePercent(34, 52), -34.6);
  assert.equal(changePercent(5, 0), null);
  assert.equal(round(1.23456, 3), 1.235);
});

test('get_video, list_videos and get_video_analytics report the same noisy sums, rounded alike', async (t) => {
  const harness = await startTestApp(t, { clock: () => new Date('2026-03-10T12:00:00Z') });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Noisy sums', duration_seconds: 184.567 });
  // What adding thousands of floating-point deltas leaves behind.
  const sums = { views: 7, watch_time_seconds: 26630.999000000007, engagement_sum: 7 * 0.40067587008759004, completions: 3 };
  const db = harness.database.db;
  await db
    .insertInto('video_stats')
    .values({ video_id: videoId, workspace_id: ws.id, ...sums, unique_viewers: 5, conversions: 1, leads: 0, updated_at: new Date() })
    .execute();
  await db
    .insertInto('video_daily_stats')
    .values({
      video_id: videoId,
      workspace_id: ws.id,
      day: '2026-03-09',
      ...sums,
      unique_viewers: 5,
      conversions: 1,
      viewer_sketch: emptySketch(),
    })
    .execute();

  const video = await harness.request('GET', `/v1/videos/${videoId}`, { token: ws.key });
  assert.equal(video.status, 200, video.raw);
  assert.equal(video.body.duration_seconds, 184.6);
  assert.deepEqual(
    [video.body.stats.watch_time_seconds, video.body.stats.average_engagement, video.body.stats.completion_rate],
    [26631, 0.4007, 0.4286],
  );
  assert.doesNotMatch(video.raw, /26630\.99|0\.40067/);

  const list = await harness.request('GET', '/v1/videos', { token: ws.key });
  assert.equal(list.body.videos[0].duration_seconds, 184.6);

  const analytics = await harness.request('GET', `/v1/videos/${videoId}/analytics?from_date=2026-03-09&to_date=2026-03-10`, {
    token: ws.key,
  });
  assert.equal(analytics.status, 200, analytics.raw);
  assert.equal(analytics.body.duration_seconds, 184.6);
  const { totals } = analytics.body;
  assert.deepEqual(
    [totals.watch_time_seconds, totals.average_engagement, totals.completion_rate],
    [video.body.stats.watch_time_seconds, video.body.stats.average_engagement, video.body.stats.completion_rate],
  );
  assert.equal(analytics.body.daily[0].watch_time_seconds, 26631);
});
