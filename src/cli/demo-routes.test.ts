/**
 * The demo's routes, on the demo library: two live routes and a draft, built by the writes the
 * operations use, walked by simulated viewers through the player's recording, so get_route answers
 * with starts, completions, choices made, drop-offs and several paths, and the draft with its problem;
 * the numbers kept as the visits happened equal a recount of the visits' rows.
 *
 * It plays the last HISTORY_DAYS, not the demo's ninety: every visit is the same walk through the same
 * recording, and a month of them already takes every path and choice; the ninety days of `seed --demo`
 * are played by test/process/cli.test.ts. (Ninety days here cost 28 s of the fast lane.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../test/helpers/app.ts';
import { rebuildRouteCounters, routeStats } from '../domains/routes/index.ts';
import { createMediaLinks } from '../media/media-links.ts';
import { DEMO_ROUTES } from './demo-route-plans.ts';
import { demoRouteVideos, playDemoRoutes } from './demo-routes.ts';
import { insertDemoLibrary } from './insert-demo-library.ts';

const NOW = new Date('2026-11-24T16:00:00.000Z');
const HISTORY_DAYS = 30;

test('seed --demo routes: live routes walked down different paths, and a draft with a problem to fix', { timeout: 300_000 }, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const db = harness.database.db;
  const { links } = createMediaLinks('demo-secret-demo-secret-demo-secret-01', 'http://localhost:3000');
  const { watchable } = await insertDemoLibrary(db, { workspaceId: ws.id, now: NOW, links });
  assert.equal(await playDemoRoutes(db, ws.id, await demoRouteVideos(db, ws.id, watchable), NOW, HISTORY_DAYS), 3);

  const list = await harness.request('GET', '/v1/routes', { token: ws.key });
  assert.equal(list.status, 200, list.raw);
  const byName = new Map(list.body.routes.map((route: { name: string }) => [route.name, route]));
  assert.deepEqual([...byName.keys()].sort(), ['Customer stories (draft)', 'Get set up in five minutes', 'Which plan fits you?']);

  let completions = 0;
  for (const name of ['Which plan fits you?', 'Get set up in five minutes']) {
    const { route_id } = byName.get(name) as { route_id: string };
    const route = (await harness.request('GET', `/v1/routes/${route_id}`, { token: ws.key })).body;
    assert.equal(route.status, 'live');
    assert.deepEqual(route.problems, [], name);
    assert.ok(route.starts >= HISTORY_DAYS, `${name}: ${route.starts} starts over ${HISTORY_DAYS} days`);
    assert.ok(route.completions > 0 && route.completions < route.starts, `${name}: ${route.completions} of ${route.starts} completed`);
    assert.ok(route.paths.length >= 3, `${name}: ${route.paths.length} paths`);
    const entry = route.steps[0];
    assert.equal(entry.video.title, DEMO_ROUTES.find((plan) => plan.name === name)?.steps[0]?.video, `${name} opens on its planned video`);
    assert.equal(entry.reached, route.starts, 'every visit reached the entry step');
    assert.ok(entry.dropped_off > 0, `${name}: some viewers left at the question`);
    assert.ok(
      entry.choices.every((choice: { chosen: number }) => choice.chosen > 0),
      `${name}: every choice was made by someone`,
    );
    completions += route.completions;
  }
  const plan = (
    await harness.request('GET', `/v1/routes/${(byName.get('Which plan fits you?') as { route_id: string }).route_id}`, { token: ws.key })
  ).body;
  const walkedAway = plan.steps[0].choices.find((choice: { target: string }) => choice.target === 'url');
  assert.ok(walkedAway.chosen > 0, 'some followed the pricing link');

  const draft = (
    await harness.request('GET', `/v1/routes/${(byName.get('Customer stories (draft)') as { route_id: string }).route_id}`, {
      token: ws.key,
    })
  ).body;
  assert.equal(draft.status, 'draft');
  assert.equal(draft.starts, 0);
  assert.deepEqual(
    draft.problems.map((problem: { code: string }) => problem.code),
    ['unreachable_step'],
  );

  // The numbers kept as the visits happened equal a count of the visits' rows made afterwards.
  for (const { route_id: routeId } of list.body.routes as { route_id: string }[]) {
    const kept = await routeStats(db, ws.id, routeId);
    await rebuildRouteCounters(db, { workspaceId: ws.id, routeId });
    assert.deepEqual(await routeStats(db, ws.id, routeId), kept, `the kept counters of ${routeId} match a recount`);
  }

  const types = await harness.eventTypes(ws.id);
  assert.equal(types.filter((type) => type === 'route.completed').length, completions, 'one route.completed per completion');
  const routeLeads = await db
    .selectFrom('leads')
    .select('id')
    .where('workspace_id', '=', ws.id)
    .where('email', 'like', 'route-visitor-%')
    .execute();
  assert.ok(routeLeads.length > 0, 'some visitors sent the lead form');
});
