/**
 * Registering, listing, changing and deleting webhook endpoints: the secret shown only when made,
 * sealed at rest; event types validated against DESIGN §4; URLs through the SSRF guard (https, or http
 * to allow-listed hosts only); the `webhooks` entitlement; pause and resume; rotation.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, testLookup } from '../../../../test/helpers/app.ts';
import { LOOPBACK, loopbackOutbound } from '../../../../test/helpers/webhooks.ts';
import { EVENT_TYPES } from '../../../event-catalog.ts';
import type { Lookup } from '../../../net/check-url.ts';

test('create_webhook_endpoint returns the secret once and keeps it sealed', async (t) => {
  const { request, workspace, database } = await startTestApp(t, { outbound: loopbackOutbound() });
  const ws = await workspace();
  const created = await request('POST', '/v1/webhook-endpoints', {
    token: ws.key,
    body: { name: '  CRM sync ', url: 'http://127.0.0.1:9/hooks', events: ['video.ready', 'video.failed', 'video.ready'] },
  });
  assert.equal(created.status, 201, created.raw);
  assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(created.body.secret.slice(6), 'base64').length, 32);
  assert.equal(created.body.name, 'CRM sync');
  assert.deepEqual(created.body.events, ['video.ready', 'video.failed']);
  assert.equal(created.body.active, true);
  assert.equal(created.body.disabled_reason, null);
  assert.equal(created.body.previous_secret_expires_at, null);

  const stored = await database.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', created.body.endpoint_id)
    .executeTakeFirstOrThrow();
  assert.ok(!JSON.stringify(stored).includes(created.body.secret.slice(6)), 'the secret is not stored readable');
  assert.match(stored.secret_sealed, /^v1\./);

  const list = await request('GET', '/v1/webhook-endpoints', { token: ws.key });
  assert.equal(list.status, 200);
  assert.equal(list.body.webhook_endpoints.length, 1);
  assert.ok(!list.raw.includes(created.body.secret), 'lists never show the secret');
  assert.deepEqual(Object.keys(list.body.webhook_endpoints[0]).sort(), [
    'active',
    'created_at',
    'disabled_reason',
    'endpoint_id',
    'events',
    'exhausted_deliveries',
    'name',
    'previous_secret_expires_at',
    'updated_at',
    'url',
  ]);

  const everything = await request('POST', '/v1/webhook-endpoints', {
    token: ws.key,
    body: { name: 'All', url: 'http://127.0.0.1:9/all' },
  });
  assert.deepEqual(everything.body.events, ['*']);
  const star = await request('POST', '/v1/webhook-endpoints', {
    token: ws.key,
    body: { name: 'Star', url: 'http://127.0.0.1:9/star', events: ['video.ready', '*'] },
  });
  assert.deepEqual(star.body.events, ['*']);
});

test('unknown event types are refused, naming the valid ones; every problem is listed at once', async (t) => {
  const { request, workspace } = await startTestApp(t, { outbound: loopbackOutbound() });
  const ws = await workspace();
  const bad = await request('POST', '/v1/webhook-endpoints', {
    token: ws.key,
    body: { name: 'x', url: 'http://127.0.0.1:9/', events: ['video.ready', 'video.exploded'] },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'invalid_request');
  assert.equal(bad.body.error.details.errors[0].field, 'events[1]');
  for (const type of ['*', ...EVENT_TYPES]) assert.ok(bad.body.error.message.includes(type), `names ${type}`);

  const empty = await request('POST', '/v1/webhook-endpoints', { token: ws.key, body: { events: [], extra: 1 } });
  assert.equal(empty.status, 400);
  assert.deepEqual(empty.body.error.details.errors.map((e: { field: string }) => e.field).sort(), ['events', 'extra', 'name', 'url']);
});

test('endpoint URLs go through the SSRF guard: https, or http only to allow-listed private hosts', async (t) => {
  // A resolver under the test's control: public names, a name that resolves to a private address, one to metadata.
  const lookup: Lookup = async (host) => {
    const table: Record<string, string> = {
      'hooks.example.com': '93.184.215.14',
      'intranet.example.com': '10.1.2.3',
      'sneaky.example.com': '169.254.169.254',
      localhost: '127.0.0.1',
    };
    const address = table[host];
    if (!address) return testLookup(host);
    return [{ address, family: 4 }];
  };
  const strict = await startTestApp(t, { outbound: { allowPrivateNetworks: [], webhookTimeoutMs: 10_000, lookup } });
  const ws = await strict.workspace();
  const attempt = (app: typeof strict, key: string, url: string) =>
    app.request('POST', '/v1/webhook-endpoints', { token: key, body: { name: 'x', url } });

  const refusals: [string, RegExp][] = [
    ['http://hooks.example.com/in', /must use https/],
    ['https://127.0.0.1/in', /loopback/],
    ['https://localhost/in', /loopback/],
    ['https://[::1]/in', /loopback/],
    ['https://intranet.example.com/in', /private network/],
    ['https://sneaky.example.com/in', /metadata/],
    ['https://169.254.169.254/latest/meta-data', /metadata/],
    ['https://2130706433/', /loopback/],
    ['https://nowhere.invalid/in', /could not be resolved/],
    ['ftp://hooks.example.com/in', /Only http and https/],
    ['https://user:pw@hooks.example.com/in', /user name or password/],
    ['not a url', /not a valid absolute URL/],
  ];
  for (const [url, problem] of refusals) {
    const res = await attempt(strict, ws.key, url);
    assert.equal(res.status, 400, `${url}: ${res.raw}`);
    assert.equal(res.body.error.details.errors[0].field, 'url');
    assert.match(res.body.error.message, problem, url);
  }
  const ok = await attempt(strict, ws.key, 'https://hooks.example.com/in');
  assert.equal(ok.status, 201, ok.raw);

  // With loopback allow-listed, http to it is accepted; public hosts still need https; metadata stays refused.
  const open = await startTestApp(t, { outbound: { allowPrivateNetworks: LOOPBACK, webhookTimeoutMs: 10_000, lookup } });
  const dev = await open.workspace();
  assert.equal((await attempt(open, dev.key, 'http://127.0.0.1:8080/hooks')).status, 201);
  assert.equal((await attempt(open, dev.key, 'http://localhost:8080/hooks')).status, 201);
  assert.equal((await attempt(open, dev.key, 'http://hooks.example.com/in')).status, 400);
  assert.equal((await attempt(open, dev.key, 'http://intranet.example.com/in')).status, 400);

  // update_webhook_endpoint checks a new URL the same way.
  const update = await strict.request('PATCH', `/v1/webhook-endpoints/${ok.body.endpoint_id}`, {
    token: ws.key,
    body: { url: 'https://intranet.example.com/in' },
  });
  assert.equal(update.status, 400);
  assert.match(update.body.error.message, /private network/);
});

test('the free plan has no webhooks: every webhook operation is plan_limit', async (t) => {
  const { request, workspace } = await startTestApp(t, { outbound: loopbackOutbound() });
  const free = await workspace('free');
  const id = '3f6d2a9e-8c41-4b7e-a0d5-6e2b9c1f7a30';
  const calls: [string, string, unknown?][] = [
    ['GET', '/v1/webhook-endpoints'],
    ['POST', '/v1/webhook-endpoints', { name: 'x', url: 'http://127.0.0.1:9/' }],
    ['PATCH', `/v1/webhook-endpoints/${id}`, { active: false }],
    ['DELETE', `/v1/webhook-endpoints/${id}`],
    ['POST', `/v1/webhook-endpoints/${id}/test`, {}],
    ['GET', `/v1/webhook-endpoints/${id}/deliveries`],
    ['POST', `/v1/webhook-endpoints/${id}/deliveries/${id}/retry`, {}],
  ];
  for (const [method, url, body] of calls) {
    const res = await request(method, url, { token: free.key, body });
    assert.equal(res.status, 403, `${method} ${url}`);
    assert.equal(res.body.error.code, 'plan_limit');
    assert.equal(res.body.error.details.entitlement, 'webhooks');
  }
});

test('list_webhook_endpoints pages newest first and shows only this workspace’s endpoints', async (t) => {
  const { request, workspace } = await startTestApp(t, { outbound: loopbackOutbound() });
  const ws = await workspace();
  const other = await workspace();
  await other.addWebhookEndpoint();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await request('POST', '/v1/webhook-endpoints', { token: ws.key, body: { name: `E${i}`, url: `http://127.0.0.1:9/${i}` } });
    ids.push(res.body.endpoint_id);
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: { webhook_endpoints: { endpoint_id: string }[]; pagination: { total: number; next_cursor: string | null } } } =
      await request('GET', `/v1/webhook-endpoints?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: ws.key });
    assert.equal(page.body.pagination.total, 5);
    seen.push(...page.body.webhook_endpoints.map((e) => e.endpoint_id));
    cursor = page.body.pagination.next_cursor;
  } while (cursor);
  assert.deepEqual(seen, [...ids].reverse());
});

test('list_webhook_endpoints counts each endpoint’s deliveries that gave up, and only those', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const failing = await ws.addWebhookEndpoint();
  const healthy = await ws.addWebhookEndpoint();
  await ws.addWebhookDelivery(failing.id);
  await ws.addWebhookDelivery(failing.id);
  for (const status of ['succeeded', 'failed', 'pending'] as const) await ws.addWebhookDelivery(failing.id, { status });
  await ws.addWebhookDelivery(healthy.id, { status: 'succeeded' });
  const list = await request('GET', '/v1/webhook-endpoints', { token: ws.key });
  const counts = Object.fromEntries(
    (list.body.webhook_endpoints as { endpoint_id: string; exhausted_deliveries: number }[]).map((e) => [
      e.endpoint_id,
      e.exhausted_deliveries,
    ]),
  );
  assert.deepEqual(counts, { [failing.id]: 2, [healthy.id]: 0 });
});

test('update_webhook_endpoint renames, re-points, changes events, pauses, and rotates the secret', async (t) => {
  const { request, workspace } = await startTestApp(t, { outbound: loopbackOutbound() });
  const ws = await workspace();
  const created = await request('POST', '/v1/webhook-endpoints', { token: ws.key, body: { name: 'A', url: 'http://127.0.0.1:9/a' } });
  const path = `/v1/webhook-endpoints/${created.body.endpoint_id}`;

  const changed = await request('PATCH', path, {
    token: ws.key,
    body: { name: 'B', url: 'http://127.0.0.1:9/b', events: ['video.created'], active: false },
  });
  assert.equal(changed.status, 200, changed.raw);
  assert.equal(changed.body.name, 'B');
  assert.equal(changed.body.url, 'http://127.0.0.1:9/b');
  assert.deepEqual(changed.body.events, ['video.created']);
  assert.equal(changed.body.active, false);
  assert.equal(changed.body.secret, undefined, 'no secret unless rotated');

  const rotated = await request('PATCH', path, { token: ws.key, body: { rotate_secret: true } });
  assert.equal(rotated.status, 200);
  assert.match(rotated.body.secret, /^whsec_/);
  assert.notEqual(rotated.body.secret, created.body.secret);
  const overlap = Date.parse(rotated.body.previous_secret_expires_at) - Date.parse(rotated.body.updated_at);
  assert.equal(overlap, 24 * 60 * 60 * 1000);

  const unchanged = await request('PATCH', path, { token: ws.key, body: { rotate_secret: false } });
  assert.equal(unchanged.body.secret, undefined);
  const list = await request('GET', '/v1/webhook-endpoints', { token: ws.key });
  assert.ok(!list.raw.includes(rotated.body.secret));

  const missing = await request('PATCH', '/v1/webhook-endpoints/00000000-0000-4000-8000-000000000000', {
    token: ws.key,
    body: { name: 'x' },
  });
  assert.equal(missing.status, 404);
});

test('delete_webhook_endpoint removes the endpoint and its delivery history', async (t) => {
  const { request, workspace, database } = await startTestApp(t, { outbound: loopbackOutbound() });
  const ws = await workspace();
  const endpoint = await ws.addWebhookEndpoint();
  await ws.addWebhookDelivery(endpoint.id);
  await ws.addWebhookDelivery(endpoint.id, { status: 'succeeded' });
  const kept = await ws.addWebhookEndpoint();
  await ws.addWebhookDelivery(kept.id);

  const deleted = await request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`, { token: ws.key });
  assert.equal(deleted.status, 200, deleted.raw);
  assert.equal(deleted.body.deleted, true);
  assert.equal(deleted.body.deliveries_deleted, 2);
  const rows = await database.db.selectFrom('webhook_deliveries').select('endpoint_id').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(
    rows.map((r) => r.endpoint_id),
    [kept.id],
  );
  assert.equal((await request('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { token: ws.key })).status, 404);
  assert.equal((await request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`, { token: ws.key })).status, 404);
});
