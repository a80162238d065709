/**
 * Interactive routes in the workspace analytics: the routes section of get_analytics_summary (starts,
 * completions and rate of the visits started in the period, by the workspace's local days; the routes
 * started most) and the routes whose completion rate moved in list_changes, with its thresholds. The
 * visits are written straight into route_visits as the route player records them; another
 * workspace's visits, even pointing at this workspace's route, never count. Figures worked out by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../test/helpers/mcp-client.ts';
import { addRouteVisits, type VisitRow } from '../../../../test/helpers/route-visit-rows.ts';
import type { RouteStatus } from '../../../db/tables/index.ts';

const TIME_ZONE = 'Europe/Paris';
/** 13:00 in Paris on 21 November 2026: the current 7 days are 15–21 November, the 7 before 8–14 November. */
const NOW = new Date('2026-11-21T12:00:00Z');
const CURRENT = new Date('2026-11-18T12:00:00Z');
const PREVIOUS = new Date('2026-11-11T12:00:00Z');

/** `starts` visits of the route at `at`, the first `completions` of them completed. */
const visits = (ws: TestWorkspace, routeId: string, at: Date, starts: number, completions: number): VisitRow[] =>
  Array.from({ length: starts }, (_, i) => ({
    workspaceId: ws.id,
    routeId,
    viewerId: `viewer-${routeId.slice(0, 8)}-${at.getTime()}-${i}`,
    startedAt: at,
    endedBy: i < completions ? (['end', 'lead_form', 'last_step'] as const)[i % 3] : i % 2 === 0 ? null : 'url',
  }));

/**
 * Which plan (live): 30 starts, 24 completed, against 25 and 10: the rate rose from 40% to 80%. One
 * start of each period sits near the local midnight between them. Pricing tour (live): 20 and 5
 * against 20 and 10, fell from 50% to 25%, exactly the 20 starts needed. Onboarding (paused): 50% against 60%, a
 * move of 10 points but under 30%. Quick quiz: 5 of 5 against 0 of 10, too few starts. Demo picker
 * (archived), Alpha and Beta: 2, 1 and 1 starts. A draft without visits.
 */
async function routesWorkspace(harness: TestApp) {
  const ws = await harness.workspace();
  await harness.database.db.updateTable('workspaces').set({ timezone: TIME_ZONE }).where('id', '=', ws.id).execute();
  const route = async (name: string, status: RouteStatus) => (await ws.addRoute({ name, status })).id;
  const plan = await route('Which plan fits you?', 'live');
  const pricing = await route('Pricing tour', 'live');
  const onboarding = await route('Onboarding', 'paused');
  const quiz = await route('Quick quiz', 'live');
  const demo = await route('Demo picker', 'archived');
  const alpha = await route('Alpha', 'live');
  const beta = await route('Beta', 'live');
  await route('Draft', 'draft');
  await addRouteVisits(harness.database.db, [
    ...visits(ws, plan, CURRENT, 28, 23),
    // 00:30 on 15 November in Paris: this period; 23:30 on 14 November: the one before.
    ...visits(ws, plan, new Date('2026-11-14T23:30:00Z'), 2, 1),
    ...visits(ws, plan, new Date('2026-11-14T22:30:00Z'), 1, 1),
    ...visits(ws, plan, PREVIOUS, 24, 9),
    // 7 November: neither period.
    ...visits(ws, plan, new Date('2026-11-07T12:00:00Z'), 40, 0),
    ...visits(ws, pricing, CURRENT, 20, 5),
    ...visits(ws, pricing, PREVIOUS, 20, 10),
    ...visits(ws, onboarding, CURRENT, 22, 11),
    ...visits(ws, onboarding, PREVIOUS, 20, 12),
    ...visits(ws, quiz, CURRENT, 5, 5),
    ...visits(ws, quiz, PREVIOUS, 10, 0),
    ...visits(ws, demo, CURRENT, 2, 1),
    ...visits(ws, alpha, CURRENT, 1, 1),
    ...visits(ws, beta, CURRENT, 1, 0),
  ]);
  // Another workspace's visits: of its own route, and (wrongly, on purpose) pointing at this one's.
  const other = await harness.workspace();
  const theirs = (await other.addRoute({ name: 'Theirs', status: 'live' })).id;
  await addRouteVisits(harness.database.db, [
    ...visits(other, theirs, CURRENT, 50, 50),
    ...visits(other, plan, CURRENT, 30, 0),
    ...visits(other, plan, PREVIOUS, 30, 30),
  ]);
  return { ws, other, plan, pricing, onboarding, quiz, demo, alpha };
}

test('get_analytics_summary: route starts and completions of the period, and the routes started most', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const { ws, other, plan, pricing, onboarding, quiz, demo } = await routesWorkspace(harness);
  const res = await harness.request('GET', '/v1/analytics/summary?range=7d', { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  // 30 + 20 + 22 + 5 + 2 + 1 + 1 starts; 24 + 5 + 11 + 5 + 1 + 1 + 0 completions.
  assert.deepEqual(res.body.routes, {
    starts: 81,
    completions: 47,
    completion_rate: 0.5802,
    top: [
      { route_id: plan, name: 'Which plan fits you?', status: 'live', starts: 30, completions: 24, completion_rate: 0.8 },
      { route_id: onboarding, name: 'Onboarding', status: 'paused', starts: 22, completions: 11, completion_rate: 0.5 },
      { route_id: pricing, name: 'Pricing tour', status: 'live', starts: 20, completions: 5, completion_rate: 0.25 },
      { route_id: quiz, name: 'Quick quiz', status: 'live', starts: 5, completions: 5, completion_rate: 1 },
      { route_id: demo, name: 'Demo picker', status: 'archived', starts: 2, completions: 1, completion_rate: 0.5 },
    ],
  });

  const client = await connectMcp(t, harness.app, ws.key);
  assert.deepEqual((await callTool(client, 'get_analytics_summary', { range: '7d' })).structuredContent, res.body);

  // 28 days reach back to 24 October: the previous week and the 7 November visits count too.
  const month = await harness.request('GET', '/v1/analytics/summary', { token: ws.key });
  assert.deepEqual([month.body.routes.starts, month.body.routes.completions], [81 + 25 + 40 + 20 + 20 + 10, 47 + 10 + 10 + 12]);
  assert.deepEqual(
    month.body.routes.top.map((route: { name: string; starts: number }) => [route.name, route.starts]),
    [
      ['Which plan fits you?', 95],
      ['Onboarding', 42],
      ['Pricing tour', 40],
      ['Quick quiz', 15],
      ['Demo picker', 2],
    ],
  );

  // The other workspace sees its own route only, never the visits it wrongly pointed at this one's.
  const theirs = await harness.request('GET', '/v1/analytics/summary?range=7d', { token: other.key });
  assert.deepEqual(
    [theirs.body.routes.starts, theirs.body.routes.completions, theirs.body.routes.top.map((r: { name: string }) => r.name)],
    [50, 50, ['Theirs']],
  );

  // A workspace without routes: zeros and an empty list.
  const empty = await harness.workspace();
  const none = await harness.request('GET', '/v1/analytics/summary?range=7d', { token: empty.key });
  assert.deepEqual(none.body.routes, { starts: 0, completions: 0, completion_rate: 0, top: [] });
});

test('list_changes: routes whose completion rate moved, with enough starts in both periods, in the digest and its sentences', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const { ws, other, plan, pricing } = await routesWorkspace(harness);
  const res = await harness.request('GET', '/v1/changes?days=7', { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(res.body.route_changes, [
    {
      route_id: plan,
      name: 'Which plan fits you?',
      status: 'live',
      completion_rate: 0.8,
      previous_completion_rate: 0.4,
      change: 0.4,
      change_percent: 100,
      starts: 30,
      previous_starts: 25,
      completions: 24,
      previous_completions: 10,
      description: 'Route “Which plan fits you?”: completion rate rose from 40% to 80% (25 → 30 starts).',
    },
    {
      route_id: pricing,
      name: 'Pricing tour',
      status: 'live',
      completion_rate: 0.25,
      previous_completion_rate: 0.5,
      change: -0.25,
      change_percent: -50,
      starts: 20,
      previous_starts: 20,
      completions: 5,
      previous_completions: 10,
      description: 'Route “Pricing tour”: completion rate fell from 50% to 25% (20 → 20 starts).',
    },
  ]);
  // Routes are news of their own: the sentence that nothing else stands out is not said.
  assert.deepEqual(res.body.summary, [
    'No views in the last 7 days, and none in the 7 days before.',
    'Route “Which plan fits you?”: completion rate rose from 40% to 80% (25 → 30 starts).',
    'Route “Pricing tour”: completion rate fell from 50% to 25% (20 → 20 starts).',
  ]);

  const client = await connectMcp(t, harness.app, ws.key);
  assert.deepEqual((await callTool(client, 'list_changes', { days: 7 })).structuredContent, res.body);

  // One day: today has no visits, yesterday neither; nothing moved.
  const today = await harness.request('GET', '/v1/changes?days=1', { token: ws.key });
  assert.deepEqual(today.body.route_changes, []);

  // The other workspace's route had no period before, and this workspace's numbers are not its own.
  const theirs = await harness.request('GET', '/v1/changes?days=7', { token: other.key });
  assert.deepEqual(theirs.body.route_changes, []);
  assert.match(theirs.body.summary.at(-1), /^Nothing else stands out/);
});
