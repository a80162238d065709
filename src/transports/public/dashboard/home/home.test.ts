/**
 * The home page (issue 28): the period's numbers with their change, views per day drawn with its
 * table, what changed in words, this week's calls, what needs attention, the latest videos and leads;
 * each from its operation, as the signed-in person; a viewer gets the same read side.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { signIn } from '../../../../../test/helpers/people.ts';
import { statementsOf } from '../../../../../test/helpers/server-timing.ts';
import { balancedColumns } from './summary-tiles.ts';

const PASSWORD = 'correct horse battery staple';

test('home shows the numbers, the chart with its table, and the latest videos and leads', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive', password: PASSWORD });
  await ws.addVideo({ title: 'Home page tour' });
  await ws.addLead({ email: 'home.lead@example.com', first_name: 'Hannah' });
  const page = await (await signIn(harness.app, owner.email, PASSWORD)).get('/app?range=7d');
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.body, /<h1>Welcome, Olive<\/h1>/);
  assert.match(page.body, /<h2 id="numbers-heading">The last 7 days<\/h2>/);
  for (const label of ['Views', 'Watch time', 'New leads', 'Conversion rate', 'Route completion']) {
    assert.match(page.body, new RegExp(`<p class="label">(<a [^>]+>)?${label}(</a>)?</p>`), label);
  }
  assert.match(page.body, /<option value="7d" selected>Last 7 days<\/option>/);
  assert.match(page.body, /<svg viewBox="0 0 960 220" role="img" aria-labelledby="views-by-day-title views-by-day-desc">/);
  assert.equal((page.body.match(/<tr><th scope="row">/g) ?? []).length, 7, 'a row per day in the chart’s table');
  assert.match(page.body, /<h2 id="changes-heading">What changed<\/h2>/);
  assert.match(page.body, /Nothing needs you/);
  assert.match(page.body, /No calls booked for the next seven days/);
  assert.match(page.body, /Home page tour/);
  assert.match(page.body, /h\*\*\*@e\*\*\*\.com|home\.lead@example\.com/);
  // The page's statements, for browser tools and the dashboard benchmark: the widgets' and the frame's.
  const timing = /^db;dur=[\d.]+;desc="(\d+) queries"$/.exec(String(page.headers['server-timing']));
  assert.ok(timing, String(page.headers['server-timing']));
  assert.ok(Number(timing[1]) >= 6 && Number(timing[1]) <= 40, `${timing[1]} statements`);
});

test('a viewer sees the read side; a person signed out is sent to sign in and back', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const viewer = await ws.addMember({ role: 'viewer', password: PASSWORD });
  const page = await (await signIn(harness.app, viewer.email, PASSWORD)).get('/app');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /The last 28 days/);
  assert.doesNotMatch(page.body, /Webhook/);
  const away = await harness.app.inject({ method: 'GET', url: '/app?range=90d' });
  assert.equal(away.statusCode, 303);
  assert.equal(away.headers.location, '/sign-in?next=/app%3Frange%3D90d');
});

test('an unknown period falls back to 28 days rather than failing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const page = await (await signIn(harness.app, owner.email, PASSWORD)).get('/app?range=forever&range=7d');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /The last 28 days/);
});

test('needs attention: a failed video and a webhook that gave up; only managers hear of webhooks', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const failedId = await ws.addVideo({ title: 'Broken upload', status: 'failed' });
  const failing = await ws.addWebhookEndpoint();
  await ws.addWebhookDelivery(failing.id);
  await ws.addWebhookDelivery(failing.id);
  await ws.addWebhookDelivery(failing.id, { status: 'succeeded' });
  const healthy = await ws.addWebhookEndpoint();
  await ws.addWebhookDelivery(healthy.id, { status: 'succeeded' });
  const ownerHome = await (await signIn(harness.app, owner.email, PASSWORD)).get('/app');
  const ownerPage = ownerHome.body;
  assert.match(ownerPage, new RegExp(`<a href="/app/videos/${failedId}">“Broken upload” failed processing</a>`));
  assert.match(ownerPage, new RegExp(`<a href="/app/settings/webhooks/${failing.id}">Webhook “Test endpoint” gave up on 2 deliveries</a>`));
  assert.doesNotMatch(ownerPage, new RegExp(healthy.id));
  // One list of endpoints, with their counts, however many endpoints there are: a third endpoint
  // adds no statement to the page.
  const before = statementsOf(ownerHome);
  const third = await ws.addWebhookEndpoint();
  await ws.addWebhookDelivery(third.id);
  const again = await (await signIn(harness.app, owner.email, PASSWORD)).get('/app');
  assert.match(again.body, /gave up on 1 delivery</);
  assert.ok(before !== undefined && statementsOf(again) === before, `${before} then ${statementsOf(again)} statements`);
  const memberPage = (await (await signIn(harness.app, member.email, PASSWORD)).get('/app')).body;
  assert.match(memberPage, /“Broken upload” failed processing/);
  assert.doesNotMatch(memberPage, /Webhook/);
});

test('the numbers sit in even rows of at most four on a wide screen, never a row of one', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(balancedColumns), [1, 2, 3, 4, 3, 3, 4, 4, 3, 4]);
});
