/**
 * Leads and revenue in the analytics operations: leads captured the way the watch-page form captures
 * them (the lead through upsertLeadRecord, then counted by the capture's own countCapturedLead in the local
 * day's rollups and the video's lifetime), ledger entries in and out of the window, across a local midnight,
 * in three currencies, pending, failed and refunded, attributed by last touch to one video or
 * another, and another workspace's entries, which never count. Every figure is worked out by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../test/helpers/mcp-client.ts';
import { collect, type Event, pageView, viewer } from '../../../../test/helpers/viewing.ts';
import { localDay } from '../../../core/calendar/time-zone.ts';
import type { NewOutcome } from '../../../db/tables/index.ts';
import { upsertLeadRecord } from '../../leads/index.ts';
import { countCapturedLead } from '../../viewing/index.ts';

const TIME_ZONE = 'Europe/Paris';
const NOW = new Date('2026-11-21T12:00:00Z');

async function watchAt(harness: TestApp, clock: { now: Date }, videoId: string, who: string, at: string, click = false) {
  clock.now = new Date(at);
  const view = pageView(videoId, clock.now);
  const events: Event[] = [{ type: 'progress', ranges: [[0, 50]] }, ...(click ? [{ type: 'cta_click' as const, position: 50 }] : [])];
  const res = await collect(harness, { token: view.token, viewer_id: viewer(who), sequence: 1, events });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** A lead captured by a video's form, as the capture endpoint records it; the day is the workspace's local day. */
async function captureLead(harness: TestApp, ws: TestWorkspace, videoId: string, email: string, at: string): Promise<string> {
  const db = harness.database.db;
  const when = new Date(at);
  const { lead, created } = await upsertLeadRecord(db, {
    workspaceId: ws.id,
    fields: { email },
    author: 'watch page',
    source: 'video',
    sourceVideoId: videoId,
    at: when,
  });
  assert.ok(created);
  await db.transaction().execute((trx) => countCapturedLead(trx, ws.id, videoId, localDay(when, TIME_ZONE), when));
  return lead.id;
}

const outcome = (ws: TestWorkspace, at: string, fields: Partial<NewOutcome>) =>
  ws.addOutcome({ occurred_at: new Date(at), created_at: new Date(at), ...fields });

/**
 * One workspace in Paris, "now" 21 November 2026 at 13:00 there. The current 7 days are 15–21
 * November, the 7 before 8–14 November.
 *
 * Tour (video A): 20 November, 4 views (1 CTA click) and 1 lead captured; 21 November, 1 view and 2
 * leads captured (one from a visit too short to be a view). Pricing (video B): 2 views on 20
 * November. Leads: the 3 captures, an API lead at 23:30 UTC on 14 November (already the 15th in
 * Paris), one on 10 November (previous period), one on 1 November (neither period).
 */
async function ledgerWorkspace(harness: TestApp, clock: { now: Date }) {
  const ws = await harness.workspace();
  await harness.database.db.updateTable('workspaces').set({ timezone: TIME_ZONE }).where('id', '=', ws.id).execute();
  const tour = await ws.addVideo({ title: 'Tour', duration_seconds: 100 });
  const pricing = await ws.addVideo({ title: 'Pricing', duration_seconds: 100 });
  for (const [i, who] of ['ann', 'bob', 'cat', 'dan'].entries()) await watchAt(harness, clock, tour, who, '2026-11-20T10:00:00Z', i === 0);
  await watchAt(harness, clock, tour, 'eve', '2026-11-21T09:00:00Z');
  for (const who of ['fay', 'gus']) await watchAt(harness, clock, pricing, who, '2026-11-20T11:00:00Z');
  clock.now = NOW;
  const buyer = await captureLead(harness, ws, tour, 'ann@example.com', '2026-11-20T10:05:00Z');
  await captureLead(harness, ws, tour, 'eve@example.com', '2026-11-21T09:05:00Z');
  await captureLead(harness, ws, tour, 'hal@example.com', '2026-11-21T09:30:00Z');
  const api = async (email: string, at: string) =>
    upsertLeadRecord(harness.database.db, { workspaceId: ws.id, fields: { email }, author: 'test', source: 'api', at: new Date(at) });
  await api('ivy@example.com', '2026-11-14T23:30:00Z');
  await api('jon@example.com', '2026-11-10T12:00:00Z');
  await api('kim@example.com', '2026-11-01T12:00:00Z');

  const byTour = { lead_id: buyer, last_touch_video_id: tour, first_touch_video_id: tour };
  // Counted for Tour: $100 on 20 November; €25 at 00:30 on 21 November in Paris; a $30 refund on the 21st.
  const biggestUsd = await outcome(ws, '2026-11-20T10:30:00Z', { ...byTour, amount: 10_000, currency: 'USD' });
  const euros = await outcome(ws, '2026-11-20T23:30:00Z', { ...byTour, amount: 2500, currency: 'EUR' });
  await outcome(ws, '2026-11-21T09:00:00Z', { ...byTour, kind: 'refund', amount: 3000, currency: 'USD', refunded_outcome_id: biggestUsd });
  // Not counted anywhere: pending and failed purchases; a booked call is counted but has no revenue.
  await outcome(ws, '2026-11-20T12:00:00Z', { ...byTour, status: 'pending', amount: 5000 });
  await outcome(ws, '2026-11-20T12:00:00Z', { ...byTour, status: 'failed', amount: 7000 });
  await outcome(ws, '2026-11-19T12:00:00Z', { ...byTour, kind: 'booked_call', amount: 15_000 });
  // Workspace revenue, not Tour's: named Tour but last touch Pricing; a sale with no video at all.
  await outcome(ws, '2026-11-19T12:00:00Z', { video_id: tour, last_touch_video_id: pricing, amount: 4000, currency: 'USD' });
  await outcome(ws, '2026-11-18T12:00:00Z', { amount: 1000, currency: 'USD' });
  // The previous period: $99 (Tour, outside the video window asked for below) and ¥5,000.
  await outcome(ws, '2026-11-10T12:00:00Z', { ...byTour, amount: 9900, currency: 'USD' });
  await outcome(ws, '2026-11-09T12:00:00Z', { amount: 5000, currency: 'JPY' });
  // Another workspace's sales, attributed (wrongly, on purpose) to this workspace's video, and its leads.
  const other = await harness.workspace();
  await outcome(other, '2026-11-20T10:00:00Z', { last_touch_video_id: tour, amount: 99_999, currency: 'USD' });
  await other.addLead();
  return { ws, tour, pricing, euros, biggestUsd, buyer };
}

test('get_video_analytics: conversions add leads captured; leads and net revenue per currency per day, by last touch', async (t) => {
  const clock = { now: NOW };
  const harness = await startTestApp(t, { clock: () => clock.now });
  const { ws, tour } = await ledgerWorkspace(harness, clock);
  const url = `/v1/videos/${tour}/analytics?from_date=2026-11-15&to_date=2026-11-21`;
  const res = await harness.request('GET', url, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  const pick = (m: Record<string, unknown>) => ({
    views: m.views,
    conversions: m.conversions,
    conversion_rate: m.conversion_rate,
    leads: m.leads,
    revenue: m.revenue,
  });
  // 5 views; conversions: 1 CTA click + 3 leads captured = 4, a rate of 0.8.
  assert.deepEqual(pick(res.body.totals), {
    views: 5,
    conversions: 4,
    conversion_rate: 0.8,
    leads: 3,
    revenue: [
      { currency: 'EUR', value: 2500, purchased: 2500, refunded: 0 },
      { currency: 'USD', value: 7000, purchased: 10_000, refunded: 3000 },
    ],
  });
  const days = res.body.daily as { date: string }[];
  assert.deepEqual(
    days.map((d) => [d.date, pick(d)]),
    [
      ...['2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19'].map((date) => [
        date,
        { views: 0, conversions: 0, conversion_rate: 0, leads: 0, revenue: [] },
      ]),
      [
        '2026-11-20',
        {
          views: 4,
          conversions: 2,
          conversion_rate: 0.5,
          leads: 1,
          revenue: [{ currency: 'USD', value: 10_000, purchased: 10_000, refunded: 0 }],
        },
      ],
      // 1 view and 2 leads: the rate is a share, so it stops at 1. The euros landed after midnight in Paris.
      [
        '2026-11-21',
        {
          views: 1,
          conversions: 2,
          conversion_rate: 1,
          leads: 2,
          revenue: [
            { currency: 'EUR', value: 2500, purchased: 2500, refunded: 0 },
            { currency: 'USD', value: -3000, purchased: 0, refunded: 3000 },
          ],
        },
      ],
    ],
  );

  // The $99 sale of 10 November comes in with a window that reaches it.
  const wider = await harness.request('GET', `/v1/videos/${tour}/analytics?from_date=2026-11-10&to_date=2026-11-21`, { token: ws.key });
  assert.deepEqual(
    wider.body.totals.revenue.find((r: { currency: string }) => r.currency === 'USD'),
    { currency: 'USD', value: 16_900, purchased: 19_900, refunded: 3000 },
  );

  // The same answer through MCP.
  const client = await connectMcp(t, harness.app, ws.key);
  const tool = await callTool(client, 'get_video_analytics', { video_id: tour, from_date: '2026-11-15', to_date: '2026-11-21' });
  assert.deepEqual(tool.structuredContent, res.body);

  // get_analytics_daily counts the same conversions across the workspace (Pricing: 2 views, none),
  // new leads of any source per day, and every sale, with a video or not.
  const daily = await harness.request('GET', '/v1/analytics/daily?from=2026-11-14&to=2026-11-21', { token: ws.key });
  assert.equal(daily.status, 200, daily.raw);
  const ledger = (m: Record<string, unknown>) => [m.views, m.conversions, m.conversion_rate, m.leads, m.revenue];
  assert.deepEqual(ledger(daily.body.totals), [
    7,
    4,
    0.5714,
    4,
    [
      { currency: 'EUR', value: 2500, purchased: 2500, refunded: 0 },
      { currency: 'USD', value: 12_000, purchased: 15_000, refunded: 3000 },
    ],
  ]);
  const byDate = Object.fromEntries(daily.body.daily.map((d: { date: string }) => [d.date, ledger(d)]));
  assert.deepEqual(byDate['2026-11-14'], [0, 0, 0, 0, []], 'ivy came at 00:30 on the 15th in Paris');
  assert.deepEqual(byDate['2026-11-15'], [0, 0, 0, 1, []]);
  assert.deepEqual(byDate['2026-11-18'], [0, 0, 0, 0, [{ currency: 'USD', value: 1000, purchased: 1000, refunded: 0 }]]);
  assert.deepEqual(byDate['2026-11-19'], [0, 0, 0, 0, [{ currency: 'USD', value: 4000, purchased: 4000, refunded: 0 }]]);
  assert.deepEqual(byDate['2026-11-20'], [6, 2, 0.3333, 1, [{ currency: 'USD', value: 10_000, purchased: 10_000, refunded: 0 }]]);
});

test('get_analytics_summary: new leads and net revenue per currency against the period before', async (t) => {
  const clock = { now: NOW };
  const harness = await startTestApp(t, { clock: () => clock.now });
  const { ws } = await ledgerWorkspace(harness, clock);
  const res = await harness.request('GET', '/v1/analytics/summary?range=7d', { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual([res.body.period.from_date, res.body.previous_period.from_date], ['2026-11-15', '2026-11-08']);
  // 3 captures and ivy (the 15th in Paris) against jon; kim is older and the other workspace's lead never counts.
  assert.deepEqual(res.body.metrics.leads, { value: 4, previous: 1, change_percent: 300 });
  assert.deepEqual(res.body.metrics.conversions, { value: 4, previous: 0, change_percent: null });
  assert.deepEqual(res.body.metrics.conversion_rate, { value: 0.5714, previous: 0, change_percent: null });
  // USD now: 100 + 40 + 10 − 30 = 120 against 99; EUR only now; JPY only before.
  assert.deepEqual(res.body.revenue, [
    { currency: 'EUR', value: 2500, previous: 0, change_percent: null },
    { currency: 'JPY', value: 0, previous: 5000, change_percent: -100 },
    { currency: 'USD', value: 12_000, previous: 9900, change_percent: 21.2 },
  ]);

  const client = await connectMcp(t, harness.app, ws.key);
  const tool = await callTool(client, 'get_analytics_summary', { range: '7d' });
  assert.deepEqual(tool.structuredContent, res.body);

  // A workspace without leads or sales: zeros and an empty list, never another workspace's figures.
  const empty = await harness.workspace();
  const none = await harness.request('GET', '/v1/analytics/summary?range=7d', { token: empty.key });
  assert.deepEqual([none.body.metrics.leads, none.body.revenue], [{ value: 0, previous: 0, change_percent: null }, []]);
});

test('list_changes: new leads, ledger counts, net revenue, the biggest purchase per currency and the video with most leads', async (t) => {
  const clock = { now: NOW };
  const harness = await startTestApp(t, { clock: () => clock.now });
  const { ws, tour, euros, biggestUsd, buyer } = await ledgerWorkspace(harness, clock);
  const res = await harness.request('GET', '/v1/changes?days=7', { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(res.body.leads, { value: 4, previous: 1, change_percent: 300 });
  assert.deepEqual(res.body.outcomes, {
    purchases: { value: 4, previous: 2, change_percent: 100 },
    refunds: { value: 1, previous: 0, change_percent: null },
    booked_calls: { value: 1, previous: 0, change_percent: null },
  });
  assert.deepEqual(
    res.body.revenue.map((r: { currency: string; value: number }) => [r.currency, r.value]),
    [
      ['EUR', 2500],
      ['JPY', 0],
      ['USD', 12_000],
    ],
  );
  assert.deepEqual(res.body.biggest_purchases, [
    {
      outcome_id: euros,
      lead_id: buyer,
      value: 2500,
      currency: 'EUR',
      video_id: tour,
      title: 'Tour',
      occurred_at: '2026-11-20T23:30:00.000Z',
    },
    {
      outcome_id: biggestUsd,
      lead_id: buyer,
      value: 10_000,
      currency: 'USD',
      video_id: tour,
      title: 'Tour',
      occurred_at: '2026-11-20T10:30:00.000Z',
    },
  ]);
  assert.deepEqual(res.body.top_lead_videos, [{ video_id: tour, title: 'Tour', leads: 3, previous_leads: 0 }]);
  assert.deepEqual(res.body.summary, [
    '7 views in the last 7 days; none in the 7 days before.',
    '4 new leads in the last 7 days, up 300% from 1 in the 7 days before.',
    'Most leads captured: “Tour”, 3 leads from its form.',
    'Net revenue in the last 7 days: €25.00 (none in the 7 days before); ¥0 (down 100% from ¥5,000); ' +
      '$120.00 (up 21.2% from $99.00), from 4 purchases, 1 refund.',
    'Biggest purchase: €25.00 on 2026-11-21, last touch “Tour”.',
    'Biggest purchase: $100.00 on 2026-11-20, last touch “Tour”.',
    '1 call booked in the last 7 days (0 in the 7 days before).',
    'Nothing else stands out: no video moved by 10+ views and 20%+, none became ready or failed, and nothing dropped unusually.',
  ]);

  const client = await connectMcp(t, harness.app, ws.key);
  assert.deepEqual((await callTool(client, 'list_changes', { days: 7 })).structuredContent, res.body);

  // One day: only today's entries (the refund, two captures), against yesterday's.
  const today = await harness.request('GET', '/v1/changes?days=1', { token: ws.key });
  assert.deepEqual([today.body.leads.value, today.body.leads.previous], [2, 1]);
  assert.deepEqual(today.body.revenue, [
    { currency: 'EUR', value: 2500, previous: 0, change_percent: null },
    { currency: 'USD', value: -3000, previous: 10_000, change_percent: -130 },
  ]);
  assert.deepEqual(
    today.body.biggest_purchases.map((p: { currency: string }) => p.currency),
    ['EUR'],
  );

  // Another workspace sees none of it.
  const other = await harness.workspace();
  const quiet = await harness.request('GET', '/v1/changes?days=7', { token: other.key });
  assert.deepEqual([quiet.body.leads.value, quiet.body.revenue, quiet.body.biggest_purchases, quiet.body.top_lead_videos], [0, [], [], []]);
});

test('compare_videos: leads captured count as conversions in the fair score', async (t) => {
  const clock = { now: NOW };
  const harness = await startTestApp(t, { clock: () => clock.now });
  const { ws, tour, pricing } = await ledgerWorkspace(harness, clock);
  const res = await harness.request('POST', '/v1/videos/compare', { token: ws.key, body: { video_ids: [pricing, tour] } });
  assert.equal(res.status, 200, res.raw);
  const [first, second] = res.body.videos;
  assert.deepEqual([first.title, second.title], ['Tour', 'Pricing']);
  // Tour: (1 click + 3 leads) / 5 views; the workspace: 4 conversions in 7 views.
  assert.deepEqual([first.metrics.conversion_rate.value, first.metrics.conversion_rate.workspace_average], [0.8, 0.5714]);
  assert.deepEqual([second.metrics.conversion_rate.value, second.metrics.conversion_rate.workspace_average], [0, 0.5714]);
  assert.match(first.why, /conversion 80% \(cautiously \d+%, workspace 57%\)/);
});
