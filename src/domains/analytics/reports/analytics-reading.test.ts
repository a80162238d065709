/**
 * The pure pieces the analytics operations are built from, on edge cases a database test would make
 * slow to reach: date windows, heatmap reading thresholds, the fair score, the change digest's minimums,
 * net revenue and the ledger's sentences, and the routes whose completion rate moved.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, eachDay, startOfLocalDay } from '../../../core/calendar/calendar-days.ts';
import type { OutcomeBucket } from '../../outcomes/index.ts';
import type { RouteActivity } from '../../routes/index.ts';
import { findMovers, findUnusualDrops, perVideo } from '../digests/change-digest.ts';
import { ledgerSentences, topLeadVideos } from '../digests/ledger-digest.ts';
import { findRouteChanges, routesSection } from '../digests/route-digest.ts';
import { resolveDateWindow } from './date-range.ts';
import { localDayBoundaries } from './day-boundaries.ts';
import { fairScore, ratesOf } from './fair-score.ts';
import { findCtaWindows, findDropOffs, findRewatchPeaks, type Heatmap } from './heatmap-reading.ts';
import { clock } from './key-moments.ts';
import { money, netRevenue, revenueChanges } from './net-revenue.ts';

test('date windows default to 28 days ending today and refuse backwards or over-long ones', () => {
  const fields = { from: 'from', to: 'to' };
  assert.deepEqual(resolveDateWindow({}, fields, '2026-03-10'), { from: '2026-02-11', to: '2026-03-10', days: 28 });
  assert.deepEqual(resolveDateWindow({ to: '2026-01-28' }, fields, '2026-03-10'), { from: '2026-01-01', to: '2026-01-28', days: 28 });
  assert.deepEqual(resolveDateWindow({ from: '2026-03-01' }, fields, '2026-03-10'), { from: '2026-03-01', to: '2026-03-10', days: 10 });
  assert.throws(() => resolveDateWindow({ from: '2026-03-11' }, fields, '2026-03-10'), /from: must be on or before to \(today, 2026-03-10/);
  assert.throws(() => resolveDateWindow({ from: '2024-03-09', to: '2025-03-10' }, fields, '2026-03-10'), /367 days/);
  assert.equal(resolveDateWindow({ from: '2024-03-10', to: '2025-03-10' }, fields, '2026-03-10').days, 366);
});

function heatmap(views: number, reach: (i: number) => number, plays = reach, clicks: (i: number) => number = () => 0): Heatmap {
  const slices = (f: (i: number) => number) => Array.from({ length: 100 }, (_, i) => f(i));
  return { views, durationSeconds: 100, reach: slices(reach), plays: slices(plays), ctaClicks: slices(clicks) };
}

test('drop-offs: steep steps merge into one stretch; gentle declines and the opening dip do not count', () => {
  // A gentle decline of 1% per slice is no drop-off.
  assert.deepEqual(findDropOffs(heatmap(100, (i) => 100 - i)), []);
  // The opening dip (slice 0 → 1) is left out; two adjacent steps of 10% make one 20% drop-off.
  const drops = findDropOffs(heatmap(100, (i) => (i === 0 ? 100 : i < 40 ? 70 : i === 40 ? 60 : i < 80 ? 50 : 45)));
  assert.deepEqual(
    drops.map((d) => [d.firstSlice, d.lastSlice, d.startSeconds, d.endSeconds, d.from, d.to, Math.round(d.fall * 100)]),
    [
      [39, 41, 39.5, 41.5, 0.7, 0.5, 20],
      [79, 80, 79.5, 80.5, 0.5, 0.45, 5],
    ],
  );
  assert.deepEqual(findDropOffs(heatmap(0, () => 0)), []);
});

test('rewatch peaks need replays, not just many plays, and skip the first slice', () => {
  const declining = (i: number) => 100 - i;
  assert.deepEqual(findRewatchPeaks(heatmap(100, declining)), [], 'a well-watched opening is no peak');
  const withReplays = findRewatchPeaks(
    heatmap(100, declining, (i) => declining(i) + (i === 0 ? 80 : i >= 60 && i < 65 ? 40 : i === 90 ? 5 : 0)),
  );
  assert.deepEqual(
    withReplays.map((p) => [p.firstSlice, p.lastSlice, p.startSeconds, p.endSeconds, p.replayShare]),
    [[60, 64, 60, 65, 0.4]],
  );
  assert.ok(Math.abs((withReplays[0]?.medianRewatch ?? 0) - 0.555) < 1e-9, 'a plays-per-view rule (1.5 × 0.555) would have missed it');
  // A video everyone loops is not one long peak.
  assert.deepEqual(
    findRewatchPeaks(
      heatmap(
        100,
        () => 100,
        () => 200,
      ),
    ),
    [],
  );
});

test('CTA windows group neighbouring slices and rank by clicks', () => {
  const windows = findCtaWindows(
    heatmap(
      50,
      () => 50,
      undefined,
      (i) => (i === 10 || i === 11 ? 2 : i === 70 ? 7 : 0),
    ),
  );
  assert.deepEqual(
    windows.map((w) => [w.firstSlice, w.lastSlice, w.clicks]),
    [
      [70, 70, 7],
      [10, 11, 4],
    ],
  );
  assert.deepEqual([clock(59.4), clock(61), clock(3725)], ['0:59', '1:01', '1:02:05']);
});

test('fair score: an unwatched video sits below a well-measured average one; nothing to compare gives 0', () => {
  // Conversions are call-to-action clicks plus leads captured: 30 + 20 of 1,000 views is 5%.
  const average = ratesOf({ views: 1000, engagement_sum: 500, completions: 300, conversions: 30, leads: 20 });
  assert.equal(average.conversion_rate, 0.05);
  const atAverage = fairScore({ views: 100_000, engagement_sum: 50_000, completions: 30_000, conversions: 1_000, leads: 4_000 }, average);
  assert.ok(atAverage.score > 97 && atAverage.score <= 100, String(atAverage.score));
  const unwatched = fairScore({ views: 0, engagement_sum: 0, completions: 0, conversions: 0, leads: 0 }, average);
  assert.deepEqual(unwatched.adjusted, average, 'no views: the Bayesian average is the workspace average');
  assert.ok(unwatched.score < atAverage.score);
  const empty = fairScore(
    { views: 0, engagement_sum: 0, completions: 0, conversions: 0, leads: 0 },
    ratesOf({ views: 0, engagement_sum: 0, completions: 0, conversions: 0, leads: 0 }),
  );
  assert.deepEqual([empty.score, empty.index.conversion_rate], [0, null]);
});

test('change digest: movers need 10 views and 20%; quiet days need a real baseline', () => {
  const row = (video_id: string, day: string, views: number) => ({
    video_id,
    title: video_id,
    day,
    views,
    watch_time_seconds: 0,
    engagement_sum: views / 2,
    completions: 0,
    conversions: 0,
    leads: 0,
  });
  const rows = [
    row('small', '2026-03-01', 1),
    row('small', '2026-03-05', 2),
    row('steady', '2026-03-01', 100),
    row('steady', '2026-03-05', 115),
    row('jump', '2026-03-05', 12),
  ];
  const videos = perVideo(rows, '2026-03-04');
  const movers = findMovers(videos);
  assert.deepEqual(
    movers.up.map((m) => [m.video_id, m.change, m.change_percent]),
    [['jump', 12, null]],
    '1 → 2 and 100 → 115 (+15%) are no news; 0 → 12 is',
  );
  const period = { from: '2026-03-04', to: '2026-03-06', days: 3, today: '2026-03-06' };
  const dailyViewsOf = (list: typeof rows) =>
    list.reduce((days, r) => days.set(r.day, (days.get(r.day) ?? 0) + r.views), new Map<string, number>());
  assert.deepEqual(
    findUnusualDrops(rows, dailyViewsOf(rows), videos, period).map((d) => [d.kind, d.date]),
    [['quiet_day', '2026-03-04']],
    '101 views over 3 days is a baseline of 33.7 a day; 4 March had none; today is not judged',
  );
  assert.deepEqual(
    findUnusualDrops(rows.slice(0, 2), dailyViewsOf(rows.slice(0, 2)), perVideo(rows.slice(0, 2), '2026-03-04'), period),
    [],
  );
});

test('route changes: 20 starts in both periods, then at least 5 points and 30% of the previous rate, either way', () => {
  const periods = (route_id: string, before: [number, number], now: [number, number]): RouteActivity[] => [
    { route_id, name: route_id, status: 'live', bucket: 1, starts: before[0], completions: before[1] },
    { route_id, name: route_id, status: 'live', bucket: 2, starts: now[0], completions: now[1] },
  ];
  const activity: RouteActivity[] = [
    ...periods('exactly 30%', [20, 10], [20, 7]), // 50% → 35%: 15 points, 30% of 50%
    ...periods('under 30%', [20, 14], [20, 10]), // 70% → 50%: 20 points, 28.6%
    ...periods('4 points', [100, 10], [100, 6]), // 10% → 6%: 40% but 4 points
    ...periods('from nothing', [20, 0], [20, 1]), // 0% → 5%: any rise from 0 of 5 points
    ...periods('19 starts', [19, 19], [20, 0]),
    // Only this period: nothing to compare with.
    { route_id: 'new', name: 'new', status: 'live', bucket: 2, starts: 50, completions: 50 },
  ];
  assert.deepEqual(
    findRouteChanges(activity, 2, 1).map((change) => [change.name, change.change, change.change_percent]),
    [
      ['exactly 30%', -0.15, -30],
      ['from nothing', 0.05, null],
    ],
  );
  // The summary's section adds every route of the period and names the five started most, ties by completions then name.
  const many = ['e', 'd', 'c', 'b', 'a', 'f'].map(
    (name, i): RouteActivity => ({ route_id: name, name, status: 'live', bucket: 1, starts: i < 5 ? 3 : 2, completions: i === 0 ? 1 : 0 }),
  );
  const section = routesSection(many, 1);
  assert.deepEqual([section.starts, section.completions, section.completion_rate], [17, 1, 0.0588]);
  assert.deepEqual(
    section.top.map((route) => route.name),
    ['e', 'a', 'b', 'c', 'd'],
  );
  assert.deepEqual(routesSection(many, 2), { starts: 0, completions: 0, completion_rate: 0, top: [] });
});

test('net revenue: per currency, refunds subtracted, booked calls not valued, a loss has no change percent', () => {
  const entry = (bucket: number, kind: OutcomeBucket['kind'], currency: string, amount: number): OutcomeBucket => ({
    bucket,
    kind,
    currency,
    count: 1,
    amount,
  });
  const entries = [
    entry(1, 'purchase', 'USD', 5000),
    entry(1, 'refund', 'USD', 8000),
    entry(2, 'purchase', 'USD', 2000),
    entry(2, 'booked_call', 'USD', 90_000),
    entry(2, 'refund', 'GBP', 100),
    entry(2, 'purchase', 'EUR', 700),
  ];
  assert.deepEqual(netRevenue(entries), [
    { currency: 'EUR', value: 700, purchased: 700, refunded: 0 },
    { currency: 'GBP', value: -100, purchased: 0, refunded: 100 },
    { currency: 'USD', value: -1000, purchased: 7000, refunded: 8000 },
  ]);
  assert.deepEqual(revenueChanges(entries, 2, 1), [
    { currency: 'EUR', value: 700, previous: 0, change_percent: null },
    { currency: 'GBP', value: -100, previous: 0, change_percent: null },
    { currency: 'USD', value: 2000, previous: -3000, change_percent: null },
  ]);
  assert.deepEqual(netRevenue([entry(1, 'booked_call', 'USD', 100)]), []);
  assert.deepEqual(
    [money(12_050, 'USD'), money(5000, 'JPY'), money(-3000, 'EUR'), money(1234, 'BHD')],
    ['$120.50', '¥5,000', '-€30.00', 'BHD 1.234'],
  );
});

test('ledger sentences: quiet when nothing happened, today against yesterday for one day, most leads first', () => {
  const none = { value: 0, previous: 0, change_percent: null };
  const quiet = { purchases: none, refunds: none, booked_calls: none };
  assert.deepEqual(
    ledgerSentences({ days: 7, timeZone: 'UTC', leads: none, outcomes: quiet, revenue: [], biggest: [], leadVideos: [] }),
    [],
  );
  assert.deepEqual(
    ledgerSentences({
      days: 1,
      timeZone: 'UTC',
      leads: { value: 0, previous: 2, change_percent: -100 },
      outcomes: quiet,
      revenue: [{ currency: 'USD', value: 0, previous: 4900, change_percent: -100 }],
      biggest: [],
      leadVideos: [],
    }),
    [
      'No new leads today so far, against 2 yesterday.',
      'Net revenue today so far: $0.00 (down 100% from $49.00), from 0 purchases, 0 refunds.',
    ],
  );
  const row = (video_id: string, day: string, leads: number) => ({
    video_id,
    title: video_id,
    day,
    views: 0,
    watch_time_seconds: 0,
    engagement_sum: 0,
    completions: 0,
    conversions: 0,
    leads,
  });
  const rows = [
    row('b', '2026-03-05', 2),
    row('a', '2026-03-06', 2),
    row('c', '2026-03-01', 9),
    row('d', '2026-03-05', 1),
    row('e', '2026-03-05', 1),
  ];
  assert.deepEqual(
    topLeadVideos(rows, '2026-03-04').map((v) => [v.video_id, v.leads, v.previous_leads]),
    [
      ['a', 2, 0],
      ['b', 2, 0],
      ['d', 1, 0],
    ],
    'ties by title, at most 3, none for a video with leads only before',
  );
});

test('local day boundaries match startOfLocalDay day by day, across daylight-saving changes in many zones', () => {
  const zones = [
    'UTC',
    'Europe/Paris',
    'America/New_York',
    'America/Santiago', // clocks change at midnight: such a day begins at 01:00
    'Australia/Lord_Howe', // a 30-minute change
    'Africa/Casablanca', // daylight saving suspended for Ramadan
    'Asia/Kolkata',
    'Pacific/Chatham',
  ];
  for (const zone of zones) {
    for (const [from, to] of [
      ['2025-11-22', '2026-11-22'],
      ['2026-03-25', '2026-04-02'],
      ['2026-10-24', '2026-10-26'],
      ['2026-11-21', '2026-11-21'],
    ] as const) {
      const expected = [...eachDay(from, to), addDays(to, 1)].map((day) => startOfLocalDay(day, zone).toISOString());
      assert.deepEqual(
        localDayBoundaries(from, to, zone).map((at) => at.toISOString()),
        expected,
        `${zone} ${from}…${to}`,
      );
    }
  }
});
