/**
 * test_webhook_endpoint against real loopback receivers (a signed webhook.test, and each failure
 * class: refused, timeout, tls, non_2xx, a redirect, dns, a blocked address), the delivery log it
 * writes (list_webhook_deliveries: newest first, status filter, paging) and retry_webhook_delivery.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { Webhook as SvixWebhook } from 'svix';
import { startTestApp, testLookup } from '../../../../test/helpers/app.ts';
import { eventually, LOOPBACK, startReceiver, startTestWebhookWorker, verify } from '../../../../test/helpers/webhooks.ts';
import type { Lookup } from '../../../net/check-url.ts';

test('test_webhook_endpoint sends a signed webhook.test and reports the answer', async (t) => {
  const testApp = await startTestApp(t, { outbound: { allowPrivateNetworks: LOOPBACK, webhookTimeoutMs: 10_000, lookup: testLookup } });
  const { request, workspace } = testApp;
  const ws = await workspace();
  const receiver = await startReceiver(t);
  receiver.answer(() => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: `ok ${'y'.repeat(5000)}` }));
  const created = await request('POST', '/v1/webhook-endpoints', { token: ws.key, body: { name: 'R', url: receiver.url } });

  const tested = await request('POST', `/v1/webhook-endpoints/${created.body.endpoint_id}/test`, { token: ws.key, body: {} });
  assert.equal(tested.status, 200, tested.raw);
  assert.equal(tested.body.succeeded, true);
  assert.equal(tested.body.status_code, 200);
  assert.equal(tested.body.failure_reason, null);
  assert.equal(tested.body.error, null);
  assert.ok(tested.body.duration_ms >= 0);
  assert.ok(tested.body.response_body_excerpt.startsWith('ok yyy'));
  assert.equal(tested.body.response_body_excerpt.length, 1024, 'the answer is read only up to 1 KiB');

  assert.equal(receiver.received.length, 1);
  const sent = receiver.received[0]!;
  assert.equal(sent.method, 'POST');
  assert.equal(sent.headers['content-type'], 'application/json');
  const payload = verify(sent, created.body.secret);
  assert.equal(payload.type, 'webhook.test');
  assert.equal(payload.id, tested.body.event_id);
  assert.equal(sent.id, tested.body.event_id, 'webhook-id is the event id');
  assert.equal(payload.workspace_id, ws.id);
  assert.equal(payload.data.endpoint_id, created.body.endpoint_id);
  assert.deepEqual(Object.keys(payload).sort(), ['created_at', 'data', 'id', 'type', 'workspace_id']);
  // Svix's verifier accepts it too (it reads the same webhook-* headers).
  assert.doesNotThrow(() => new SvixWebhook(created.body.secret).verify(sent.body, sent.headers as Record<string, string>));
  assert.throws(() =>
    new SvixWebhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(sent.body, sent.headers as Record<string, string>),
  );

  const log = await request('GET', `/v1/webhook-endpoints/${created.body.endpoint_id}/deliveries`, { token: ws.key });
  assert.equal(log.body.deliveries.length, 1);
  const entry = log.body.deliveries[0];
  assert.equal(entry.delivery_id, tested.body.delivery_id);
  assert.equal(entry.event_type, 'webhook.test');
  assert.equal(entry.status, 'succeeded');
  assert.equal(entry.attempts, 1);
  assert.equal(entry.last_status_code, 200);
  assert.equal(entry.next_attempt_at, null);
  assert.ok(entry.delivered_at);

  // Paused endpoints can still be tested, so they can be checked before resuming.
  await request('PATCH', `/v1/webhook-endpoints/${created.body.endpoint_id}`, { token: ws.key, body: { active: false } });
  const paused = await request('POST', `/v1/webhook-endpoints/${created.body.endpoint_id}/test`, { token: ws.key, body: {} });
  assert.equal(paused.body.succeeded, true);
  assert.equal(receiver.received.length, 2);
});

test('test_webhook_endpoint names why a delivery failed: refused, timeout, tls, non_2xx, redirect, dns, blocked', async (t) => {
  // Names under the test's control, so one can stop resolving, or start resolving somewhere refused, after registration.
  const names = new Map<string, string>([['receiver.test', '127.0.0.1']]);
  const lookup: Lookup = async (host) => {
    const address = names.get(host);
    if (!address) return testLookup(host);
    return [{ address, family: 4 }];
  };
  const { request, workspace } = await startTestApp(t, { outbound: { allowPrivateNetworks: LOOPBACK, webhookTimeoutMs: 3000, lookup } });
  const ws = await workspace();
  const receiver = await startReceiver(t);
  const port = new URL(receiver.url).port;
  const endpointFor = async (url: string) => {
    const res = await request('POST', '/v1/webhook-endpoints', { token: ws.key, body: { name: 'F', url } });
    assert.equal(res.status, 201, res.raw);
    return res.body.endpoint_id as string;
  };
  const testOf = async (endpointId: string) =>
    (await request('POST', `/v1/webhook-endpoints/${endpointId}/test`, { token: ws.key, body: {} })).body;

  const closedPort = await new Promise<number>((ok) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = probe.address() as { port: number };
      probe.close(() => ok(p));
    });
  });
  const refused = await testOf(await endpointFor(`http://127.0.0.1:${closedPort}/hooks`));
  assert.equal(refused.succeeded, false);
  assert.equal(refused.failure_reason, 'refused');
  assert.equal(refused.status_code, null);

  receiver.answer(() => ({ hang: true }));
  const slow = await testOf(await endpointFor(receiver.url));
  assert.equal(slow.failure_reason, 'timeout');

  receiver.answer(() => ({ status: 204 }));
  const tls = await testOf(await endpointFor(`https://127.0.0.1:${port}/hooks`));
  assert.equal(tls.failure_reason, 'tls', JSON.stringify(tls));

  receiver.answer(() => ({ status: 500, body: 'database down' }));
  const broken = await testOf(await endpointFor(receiver.url));
  assert.equal(broken.failure_reason, 'non_2xx');
  assert.equal(broken.status_code, 500);
  assert.equal(broken.response_body_excerpt, 'database down');
  assert.match(broken.error, /HTTP 500/);

  const target = await startReceiver(t, '/elsewhere');
  receiver.answer(() => ({ status: 302, headers: { location: target.url } }));
  const redirected = await testOf(await endpointFor(receiver.url));
  assert.equal(redirected.failure_reason, 'non_2xx');
  assert.equal(redirected.status_code, 302);
  assert.match(redirected.error, /redirect/);
  assert.equal(target.received.length, 0, 'the redirect was not followed');

  const fickle = await endpointFor(`http://receiver.test:${port}/hooks`);
  names.delete('receiver.test');
  assert.equal((await testOf(fickle)).failure_reason, 'dns');
  names.set('receiver.test', '10.0.0.7'); // rebound to a private address nobody allow-listed
  const blocked = await testOf(fickle);
  assert.equal(blocked.failure_reason, 'blocked');
  assert.match(blocked.error, /private network/);
  assert.doesNotMatch(blocked.error, /10\.0\.0\.7/, 'a resolved address is never shown');

  // Each failed test is logged once, failed with no next attempt: a test is tried once, never on the schedule.
  const log = await request('GET', `/v1/webhook-endpoints/${fickle}/deliveries`, { token: ws.key });
  assert.deepEqual(
    log.body.deliveries.map((d: { status: string; attempts: number; last_failure_reason: string; next_attempt_at: string | null }) => [
      d.status,
      d.attempts,
      d.last_failure_reason,
      d.next_attempt_at,
    ]),
    [
      ['failed', 1, 'blocked', null],
      ['failed', 1, 'dns', null],
    ],
  );
  const missing = await request('POST', '/v1/webhook-endpoints/00000000-0000-4000-8000-000000000000/test', { token: ws.key, body: {} });
  assert.equal(missing.status, 404);
});

test('a failed test delivery stays failed: not resent by the sender nor by resuming, until retried by hand', async (t) => {
  // The webhook worker started below sends every workspace's deliveries: a database of its own.
  const testApp = await startTestApp(t, {
    isolated: true,
    outbound: { allowPrivateNetworks: LOOPBACK, webhookTimeoutMs: 10_000, lookup: testLookup },
  });
  const { request, workspace } = testApp;
  const ws = await workspace();
  const receiver = await startReceiver(t);
  receiver.answer(() => ({ status: 500, body: 'not yet' }));
  const created = await request('POST', '/v1/webhook-endpoints', { token: ws.key, body: { name: 'R', url: receiver.url } });
  const base = `/v1/webhook-endpoints/${created.body.endpoint_id}`;
  const tested = await request('POST', `${base}/test`, { token: ws.key, body: {} });
  assert.equal(tested.body.succeeded, false);
  startTestWebhookWorker(testApp);

  await request('PATCH', base, { token: ws.key, body: { active: false } });
  await request('PATCH', base, { token: ws.key, body: { active: true } });
  const [entry] = (await request('GET', `${base}/deliveries`, { token: ws.key })).body.deliveries;
  assert.deepEqual(
    [entry.status, entry.attempts, entry.max_attempts, entry.next_attempt_at],
    ['failed', 1, 1, null],
    'resuming does not make a test due',
  );
  assert.equal((await request('GET', `${base}/deliveries?status=exhausted`, { token: ws.key })).body.pagination.total, 0);

  receiver.answer(() => ({ status: 204 }));
  const retried = await request('POST', `${base}/deliveries/${tested.body.delivery_id}/retry`, { token: ws.key, body: {} });
  assert.equal(retried.status, 200, retried.raw);
  assert.deepEqual([retried.body.status, retried.body.max_attempts], ['pending', 2]);
  const done = await eventually(async () => {
    const page = await request('GET', `${base}/deliveries?status=succeeded`, { token: ws.key });
    return page.body.deliveries[0];
  }, 'the retried test delivery to succeed');
  assert.equal(done.attempts, 2);
  assert.equal(receiver.received.length, 2, 'sent by the test, then once by the retry, never by the sender on its own');
});

test('list_webhook_deliveries: newest first, filtered by status, paged; retry_webhook_delivery resends failed ones', async (t) => {
  // The webhook worker started below sends every workspace's deliveries: a database of its own.
  const testApp = await startTestApp(t, {
    isolated: true,
    outbound: { allowPrivateNetworks: LOOPBACK, webhookTimeoutMs: 10_000, lookup: testLookup },
  });
  const { request, workspace } = testApp;
  const ws = await workspace();
  const receiver = await startReceiver(t);
  receiver.answer(() => ({ status: 503 }));
  const created = await request('POST', '/v1/webhook-endpoints', { token: ws.key, body: { name: 'R', url: receiver.url } });
  const base = `/v1/webhook-endpoints/${created.body.endpoint_id}`;
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await request('POST', `${base}/test`, { token: ws.key, body: {} })).body.delivery_id);
  receiver.answer(() => ({ status: 204 }));
  ids.push((await request('POST', `${base}/test`, { token: ws.key, body: {} })).body.delivery_id);

  const all = await request('GET', `${base}/deliveries`, { token: ws.key });
  assert.deepEqual(
    all.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id),
    [...ids].reverse(),
  );
  const failedOnes = await request('GET', `${base}/deliveries?status=failed&limit=2`, { token: ws.key });
  assert.equal(failedOnes.body.pagination.total, 3);
  assert.equal(failedOnes.body.deliveries.length, 2);
  assert.equal(failedOnes.body.deliveries[0].last_status_code, 503);
  assert.equal(failedOnes.body.deliveries[0].last_failure_reason, 'non_2xx');
  const next = await request(
    'GET',
    `${base}/deliveries?status=failed&limit=2&cursor=${encodeURIComponent(failedOnes.body.pagination.next_cursor)}`,
    {
      token: ws.key,
    },
  );
  assert.deepEqual(
    next.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id),
    [ids[0]],
  );
  const wrongFilter = await request(
    'GET',
    `${base}/deliveries?status=succeeded&cursor=${encodeURIComponent(failedOnes.body.pagination.next_cursor)}`,
    {
      token: ws.key,
    },
  );
  assert.equal(wrongFilter.status, 400, 'a cursor is bound to its filters');
  assert.equal((await request('GET', `${base}/deliveries?status=lost`, { token: ws.key })).status, 400);

  // A failed delivery with no attempt left is resent with one more, the same event id, by the background sender.
  startTestWebhookWorker(testApp);
  const retried = await request('POST', `${base}/deliveries/${ids[0]}/retry`, { token: ws.key, body: {} });
  assert.equal(retried.status, 200, retried.raw);
  assert.equal(retried.body.status, 'pending');
  assert.equal(retried.body.max_attempts, 2);
  const done = await eventually(async () => {
    const page = await request('GET', `${base}/deliveries?status=succeeded`, { token: ws.key });
    return page.body.deliveries.find((d: { delivery_id: string }) => d.delivery_id === ids[0]);
  }, 'the retried delivery to succeed');
  assert.equal(done.attempts, 2);
  const resent = receiver.received.at(-1)!;
  assert.equal(resent.id, retried.body.event_id, 'same webhook-id as before');
  assert.equal(verify(resent, created.body.secret).id, retried.body.event_id);

  const again = await request('POST', `${base}/deliveries/${ids[0]}/retry`, { token: ws.key, body: {} });
  assert.equal(again.status, 409, 'a delivered delivery is not retried');
  assert.equal(again.body.error.details.reason, 'delivery_succeeded');
  const other = await ws.addWebhookEndpoint();
  const elsewhere = await request('POST', `/v1/webhook-endpoints/${other.id}/deliveries/${ids[1]}/retry`, { token: ws.key, body: {} });
  assert.equal(elsewhere.status, 404, 'a delivery is found only under its own endpoint');
});
