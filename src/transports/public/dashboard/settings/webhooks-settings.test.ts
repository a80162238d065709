/**
 * The Webhooks tab (issue 28): an admin adds an endpoint (its secret shown once), sends a test event
 * to a real receiver and finds the attempt in the deliveries log with its status code, edits and
 * pauses it, rotates the secret, retries an exhausted delivery and deletes the endpoint, each checked
 * through the API; problems sit next to their field; a member is refused.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { LOOPBACK } from '../../../../../test/helpers/fake-transcription-server.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

function form(fields: [string, string][]): string {
  return fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

test('an admin adds, tests, edits, rotates, retries and deletes an endpoint', async (t) => {
  const received: string[] = [];
  const receiver = createServer((request, response) => {
    received.push(String(request.headers['webhook-id']));
    request.resume();
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => receiver.close());
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  // The receiver is on this machine: loopback is allowed for this app only, as an operator would allow it.
  const harness = await startTestApp(t, { outbound: { allowPrivateNetworks: LOOPBACK, webhookTimeoutMs: 10_000 } });
  const ws = await harness.workspace();
  const admin = await ws.addMember({ role: 'admin', password: PASSWORD });
  const person = await signIn(harness.app, admin.email, PASSWORD);
  const page = await person.get('/app/settings/webhooks');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /name="events" value="video\.ready"/);
  const csrf = csrfOf(page.body);
  const post = (path: string, fields: [string, string][]) =>
    harness.app.inject({
      method: 'POST',
      url: path,
      remoteAddress: person.address,
      headers: { cookie: person.cookie as string, origin: 'http://localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(fields),
    });

  assert.equal(
    (
      await post('/app/settings/webhooks', [
        ['name', 'CRM'],
        ['url', url],
        ['events', '*'],
      ])
    ).statusCode,
    403,
    'no CSRF',
  );
  const wrong = await post('/app/settings/webhooks', [
    ['csrf', csrf],
    ['name', 'CRM'],
    ['url', 'ftp://nowhere'],
    ['events', 'video.ready'],
  ]);
  assert.equal(wrong.statusCode, 400);
  assert.match(wrong.body, /id="f-endpoint-url-error"/);
  assert.match(wrong.body, /value="video\.ready" checked/);
  const noEvents = await post('/app/settings/webhooks', [
    ['csrf', csrf],
    ['name', 'CRM'],
    ['url', url],
  ]);
  assert.match(noEvents.body, /Choose at least one event/);

  const created = await post('/app/settings/webhooks', [
    ['csrf', csrf],
    ['name', 'CRM sync'],
    ['url', url],
    ['events', 'video.ready'],
    ['events', 'lead.created'],
  ]);
  assert.equal(
    created.statusCode,
    201,
    [...created.body.matchAll(/class="(?:field-error|alert)"[^>]*>([^<]*)/g)].map((m) => m[1]).join(' | '),
  );
  assert.equal(created.headers['cache-control'], 'no-store');
  assert.match(created.body, /value="whsec_[^"]+"/);
  const endpoints = async () => (await harness.request('GET', '/v1/webhook-endpoints', { token: ws.key })).body.webhook_endpoints;
  const endpoint = (await endpoints())[0];
  assert.deepEqual([endpoint.name, endpoint.url, endpoint.events.sort()], ['CRM sync', url, ['lead.created', 'video.ready']]);
  const base = `/app/settings/webhooks/${endpoint.endpoint_id}`;

  const tested = await post(`${base}/test`, [['csrf', csrf]]);
  assert.equal(tested.statusCode, 303);
  assert.match(String(tested.headers.location), /done=tested&ok=1/);
  assert.equal(received.length, 1, 'the receiver got the test event');
  const after = await person.get(String(tested.headers.location));
  assert.match(after.body, /Test event delivered: the endpoint answered HTTP 204/);
  assert.match(after.body, /<code>webhook\.test<\/code>/);
  assert.match(after.body, /<strong>HTTP 204<\/strong>/);

  const edited = await post(base, [
    ['csrf', csrf],
    ['name', 'CRM (paused)'],
    ['url', url],
    ['events', '*'],
  ]);
  assert.equal(edited.statusCode, 303);
  const changed = (await endpoints())[0];
  assert.deepEqual([changed.name, changed.events, changed.active], ['CRM (paused)', ['*'], false]);

  const rotated = await post(`${base}/rotate`, [['csrf', csrf]]);
  assert.equal(rotated.statusCode, 201);
  assert.match(rotated.body, /value="whsec_[^"]+"/);
  assert.ok((await endpoints())[0].previous_secret_expires_at, 'the old secret overlaps for a while');

  const deliveryId = await ws.addWebhookDelivery(endpoint.endpoint_id);
  const log = await person.get(`${base}?status=exhausted`);
  assert.match(log.body, new RegExp(`${base}/deliveries/${deliveryId}/retry`));
  const retried = await post(`${base}/deliveries/${deliveryId}/retry`, [['csrf', csrf]]);
  assert.equal(retried.headers.location, `${base}?done=retried`);
  const deliveries = (
    await harness.request('GET', `/v1/webhook-endpoints/${endpoint.endpoint_id}/deliveries?status=exhausted`, { token: ws.key })
  ).body.deliveries;
  assert.deepEqual(deliveries, [], 'no longer exhausted');

  const deleted = await post(`${base}/delete`, [['csrf', csrf]]);
  assert.equal(deleted.headers.location, '/app/settings/webhooks?done=deleted');
  assert.deepEqual(await endpoints(), []);
  assert.equal((await person.get(base)).statusCode, 404);
});

test('a member is refused the webhooks pages and their forms', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const { id } = await ws.addWebhookEndpoint();
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  assert.equal((await person.get('/app/settings/webhooks')).statusCode, 403);
  assert.equal((await person.get(`/app/settings/webhooks/${id}`)).statusCode, 403);
  const csrf = csrfOf((await person.get('/app/settings')).body);
  assert.equal((await person.post(`/app/settings/webhooks/${id}/delete`, { csrf })).statusCode, 403);
  assert.equal((await harness.request('GET', '/v1/webhook-endpoints', { token: ws.key })).body.webhook_endpoints.length, 1);
});
