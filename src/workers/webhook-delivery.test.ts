/**
 * The webhook worker end to end, with real loopback receivers that verify every request with the
 * `standardwebhooks` package: video events reach subscribed endpoints of their own workspace; lead
 * fields are masked as the workspace says; secret rotation signs with both secrets for 24 hours and
 * then the new one only (the API's clock is moved, nothing waits a day); pause holds and resume sends;
 * and faults: a receiver that hangs, answers 500, 429 with Retry-After, 410, 400, or redirects.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../test/helpers/app.ts';
import {
  eventually,
  loopbackOutbound,
  type Receiver,
  startReceiver,
  startTestWebhookWorker,
  verifies,
  verify,
} from '../../test/helpers/webhooks.ts';
import { recordEvent } from '../db/outbox.ts';

const HOUR = 60 * 60 * 1000;
// Every test runs the webhook worker, which fans out and sends every workspace's events: each test
// gets a database of its own (isolated), so no delivery left by another test reaches its receivers.

async function register(app: TestApp, ws: TestWorkspace, receiver: Receiver, events?: string[]) {
  const res = await app.request('POST', '/v1/webhook-endpoints', { token: ws.key, body: { name: 'Receiver', url: receiver.url, events } });
  assert.equal(res.status, 201, res.raw);
  return { id: res.body.endpoint_id as string, secret: res.body.secret as string };
}

async function retitle(app: TestApp, ws: TestWorkspace, videoId: string, title: string) {
  const res = await app.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { title } });
  assert.equal(res.status, 200, res.raw);
}

async function deliveriesOf(app: TestApp, ws: TestWorkspace, endpointId: string, query = '') {
  const res = await app.request('GET', `/v1/webhook-endpoints/${endpointId}/deliveries?limit=100${query}`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  return res.body.deliveries as {
    delivery_id: string;
    event_id: string;
    event_type: string;
    status: string;
    attempts: number;
    max_attempts: number;
    next_attempt_at: string | null;
    last_status_code: number | null;
    last_error: string | null;
    last_failure_reason: string | null;
  }[];
}

test('video events reach the subscribed endpoints of their workspace, signed, with the event id as webhook-id', async (t) => {
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound() });
  startTestWebhookWorker(app);
  const ws = await app.workspace();
  const stranger = await app.workspace();
  const [all, updatesOnly, foreign] = [await startReceiver(t), await startReceiver(t), await startReceiver(t)];
  const allEndpoint = await register(app, ws, all);
  const updatesEndpoint = await register(app, ws, updatesOnly, ['video.updated']);
  await register(app, stranger, foreign);

  const upload = await app.request('POST', '/v1/videos/uploads', { token: ws.key, body: { file_name: 'tour.mp4', file_size: 1000 } });
  assert.equal(upload.status, 201);
  await retitle(app, ws, upload.body.video_id, 'Product tour');

  await eventually(() => all.received.length === 2 && updatesOnly.received.length === 1, 'both endpoints to receive their events');
  const events = await app.database.db
    .selectFrom('events')
    .select(['id', 'type'])
    .where('workspace_id', '=', ws.id)
    .orderBy('sequence')
    .execute();
  const types = all.received.map((r) => verify(r, allEndpoint.secret).type).sort();
  assert.deepEqual(types, ['video.created', 'video.updated']);
  for (const request of all.received) {
    const payload = verify(request, allEndpoint.secret);
    assert.equal(request.id, payload.id);
    assert.ok(events.some((e) => e.id === payload.id && e.type === payload.type));
    assert.equal(payload.workspace_id, ws.id);
    assert.equal(payload.data.video_id, upload.body.video_id);
    assert.ok(!Number.isNaN(Date.parse(payload.created_at)));
  }
  const update = verify(updatesOnly.received[0]!, updatesEndpoint.secret);
  assert.equal(update.type, 'video.updated');
  assert.deepEqual(update.data.changed, ['title']);
  assert.equal(update.data.video.title, 'Product tour');
  assert.ok(!verifies(updatesOnly.received[0]!, allEndpoint.secret), 'each endpoint signs with its own secret');
  // The events were all fanned out, and none went to the other workspace's endpoint.
  await eventually(async () => {
    const pending = await app.database.db.selectFrom('events').select('id').where('dispatched_at', 'is', null).execute();
    return pending.length === 0;
  }, 'fan-out to finish');
  assert.equal(foreign.received.length, 0);
  const log = await eventually(async () => {
    const rows = await deliveriesOf(app, ws, allEndpoint.id);
    return rows.every((d) => d.status === 'succeeded') ? rows : undefined;
  }, 'both deliveries to be logged as succeeded');
  assert.deepEqual(
    log.map((d) => d.attempts),
    [1, 1],
  );
});

test('personal fields in payloads are masked, from the event schemas’ markers, while the workspace masks them', async (t) => {
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound() });
  startTestWebhookWorker(app);
  const masking = await app.workspace();
  const open = await app.workspace();
  await app.database.db.updateTable('workspaces').set({ mask_pii: false }).where('id', '=', open.id).execute();
  const receiver = await startReceiver(t);
  const masked = await register(app, masking, receiver);
  const clear = await register(app, open, receiver);
  const at = '2026-03-01T12:00:00.000Z';
  const lead = {
    lead_id: 'b1f1c1e2-3a4b-4c5d-8e6f-7a8b9c0d1e2f',
    email: 'jane.doe@example.com',
    first_name: 'Jane',
    last_name: 'Doe',
    name: 'Jane Doe',
    phone: '+1 415 555 0189',
    status: 'new' as const,
    tags: ['webinar'],
    source: 'video' as const,
    source_video: null,
    custom_fields: { company: 'Acme' },
    engagement_score: 12,
    last_activity_at: at,
    created_at: at,
    updated_at: at,
  };
  const booking = {
    booking_id: 'c2a7d9e4-5b6c-4d7e-8f90-a1b2c3d4e5f6',
    event_type_id: 'd3b8e0f5-6c7d-4e8f-9a01-b2c3d4e5f6a7',
    status: 'confirmed' as const,
    start: '2026-03-05T15:00:00.000Z',
    end: '2026-03-05T15:30:00.000Z',
    invitee_email: 'sam@example.org',
    invitee_name: 'Sam Lee',
    invitee_phone: null,
    invitee_timezone: 'Europe/Paris',
    lead_id: lead.lead_id,
    video_id: null,
    created_at: at,
    canceled_at: null,
  };
  for (const ws of [masking, open]) {
    await recordEvent(app.database.db, { workspaceId: ws.id, type: 'lead.created', data: { lead_id: lead.lead_id, lead }, at: new Date() });
    await recordEvent(app.database.db, {
      workspaceId: ws.id,
      type: 'booking.created',
      data: { booking_id: booking.booking_id, booking },
      at: new Date(),
    });
  }
  await eventually(() => receiver.received.length === 4, 'the lead and booking events of both workspaces');
  const payloads = receiver.received.map((r) => (verifies(r, masked.secret) ? verify(r, masked.secret) : verify(r, clear.secret)));
  const from = (ws: TestWorkspace, type: string) => payloads.find((p) => p.workspace_id === ws.id && p.type === type)!.data;
  assert.deepEqual(from(masking, 'lead.created').lead, {
    ...lead,
    email: 'j***@e***.com',
    first_name: 'J***',
    last_name: 'D***',
    name: 'J***',
    phone: '***89',
  });
  assert.deepEqual(from(masking, 'booking.created').booking, { ...booking, invitee_email: 's***@e***.org', invitee_name: 'S***' });
  assert.deepEqual(from(open, 'lead.created').lead, lead);
  assert.deepEqual(from(open, 'booking.created').booking, booking);
});

test('after a rotation both secrets sign for 24 hours, then only the new one', async (t) => {
  let offsetMs = 0;
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound(), clock: () => new Date(Date.now() + offsetMs) });
  startTestWebhookWorker(app);
  const ws = await app.workspace();
  const video = await ws.addVideo();
  const receiver = await startReceiver(t);
  const endpoint = await register(app, ws, receiver);
  const path = `/v1/webhook-endpoints/${endpoint.id}`;

  const first = await app.request('PATCH', path, { token: ws.key, body: { rotate_secret: true } });
  await retitle(app, ws, video, 'During the overlap');
  const during = await eventually(() => receiver.received[0], 'a delivery during the overlap');
  assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
  assert.equal(verify(during, first.body.secret).type, 'video.updated', 'the new secret verifies');
  assert.equal(verify(during, endpoint.secret).type, 'video.updated', 'the old secret still verifies');

  // Rotate again as if a day and a minute ago: that rotation's overlap has ended by now.
  offsetMs = -(24 * HOUR + 60_000);
  const second = await app.request('PATCH', path, { token: ws.key, body: { rotate_secret: true } });
  assert.ok(Date.parse(second.body.previous_secret_expires_at) < Date.now());
  offsetMs = 0;
  await retitle(app, ws, video, 'After the overlap');
  const after = await eventually(() => receiver.received[1], 'a delivery after the overlap');
  assert.equal(String(after.headers['webhook-signature']).split(' ').length, 1);
  assert.equal(verify(after, second.body.secret).data.video.title, 'After the overlap');
  assert.throws(() => verify(after, first.body.secret), /No matching signature found/);
  assert.throws(() => verify(after, endpoint.secret), /No matching signature found/);
});

test('a paused endpoint holds its events as deliveries and sends them all when resumed', async (t) => {
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound() });
  startTestWebhookWorker(app);
  const ws = await app.workspace();
  const video = await ws.addVideo();
  const [pausedReceiver, activeReceiver] = [await startReceiver(t), await startReceiver(t)];
  const paused = await register(app, ws, pausedReceiver);
  await register(app, ws, activeReceiver);
  const pause = await app.request('PATCH', `/v1/webhook-endpoints/${paused.id}`, { token: ws.key, body: { active: false } });
  assert.equal(pause.body.active, false);

  for (const title of ['One', 'Two', 'Three']) await retitle(app, ws, video, title);
  // The active endpoint got every event, so the sender has been over the paused one's deliveries too.
  await eventually(() => activeReceiver.received.length === 3, 'the active endpoint to receive all three');
  const held = await eventually(async () => {
    const rows = await deliveriesOf(app, ws, paused.id);
    return rows.length === 3 ? rows : undefined;
  }, 'three held deliveries');
  assert.deepEqual(
    held.map((d) => [d.status, d.attempts, d.next_attempt_at]),
    Array(3).fill(['pending', 0, null]),
  );
  assert.equal(pausedReceiver.received.length, 0);

  const resume = await app.request('PATCH', `/v1/webhook-endpoints/${paused.id}`, { token: ws.key, body: { active: true } });
  assert.equal(resume.body.active, true);
  await eventually(() => pausedReceiver.received.length === 3, 'the held deliveries after resuming');
  const titles = pausedReceiver.received.map((r) => verify(r, paused.secret).data.video.title).sort();
  assert.deepEqual(titles, ['One', 'Three', 'Two']);
  await eventually(async () => (await deliveriesOf(app, ws, paused.id, '&status=succeeded')).length === 3, 'all three logged as succeeded');
});

test('a receiver answering 500 gets retries with the same webhook-id until a 2xx', async (t) => {
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound() });
  startTestWebhookWorker(app, { retrySchedule: [40, 80, 120], random: () => 0 });
  const ws = await app.workspace();
  const receiver = await startReceiver(t);
  receiver.answer((r) => (r.n < 3 ? { status: 500, body: 'try later' } : { status: 200 }));
  const endpoint = await register(app, ws, receiver);
  await retitle(app, ws, await ws.addVideo(), 'Retried');

  const [delivery] = await eventually(async () => {
    const rows = await deliveriesOf(app, ws, endpoint.id, '&status=succeeded');
    return rows.length === 1 ? rows : undefined;
  }, 'the delivery to succeed');
  assert.equal(delivery!.attempts, 3);
  assert.equal(delivery!.last_status_code, 200);
  assert.equal(receiver.received.length, 3);
  assert.equal(new Set(receiver.received.map((r) => r.id)).size, 1, 'one webhook-id across retries');
  assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1, 'the same body every time');
  for (const r of receiver.received) verify(r, endpoint.secret);
  // Backoff: each retry waited at least its (jittered, here shortest) step.
  const [a, b, c] = receiver.received.map((r) => r.at) as [number, number, number];
  assert.ok(b - a >= 40 * 0.8 - 5 && c - b >= 80 * 0.8 - 5, `gaps ${b - a} ms, ${c - b} ms`);
});

async function expectExhausted(
  app: TestApp,
  ws: TestWorkspace,
  e: { name: string; id: string; receiver: Receiver; reason: string; code: number | null },
) {
  const [delivery] = await eventually(async () => {
    const rows = await deliveriesOf(app, ws, e.id, '&status=exhausted');
    return rows.length === 1 ? rows : undefined;
  }, `${e.name}: the delivery to be exhausted`);
  assert.equal(delivery!.attempts, 3, e.name);
  assert.equal(delivery!.max_attempts, 3);
  assert.equal(delivery!.next_attempt_at, null);
  assert.equal(delivery!.last_failure_reason, e.reason, e.name);
  assert.equal(delivery!.last_status_code, e.code, e.name);
  assert.ok(delivery!.last_error, e.name);
  assert.equal(e.receiver.received.length, 3, `${e.name}: three attempts, no more`);
  assert.equal(new Set(e.receiver.received.map((r) => r.id)).size, 1);
  return delivery!;
}

test('failures that never end exhaust the schedule: 500, 400, a redirect (never followed)', async (t) => {
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound(10_000) });
  startTestWebhookWorker(app, { retrySchedule: [30, 60], timeoutMs: 10_000 });
  const ws = await app.workspace();
  const target = await startReceiver(t, '/moved');
  const cases = [
    { name: '500', reply: { status: 500 }, reason: 'non_2xx', code: 500 },
    { name: '400', reply: { status: 400, body: 'bad' }, reason: 'non_2xx', code: 400 },
    { name: 'redirect', reply: { status: 307, headers: { location: target.url } }, reason: 'non_2xx', code: 307 },
  ];
  const endpoints: { name: string; id: string; receiver: Receiver; reason: string; code: number | null }[] = [];
  for (const c of cases) {
    const receiver = await startReceiver(t);
    receiver.answer(() => c.reply);
    endpoints.push({ ...c, id: (await register(app, ws, receiver)).id, receiver });
  }
  await retitle(app, ws, await ws.addVideo(), 'Doomed');
  for (const e of endpoints) await expectExhausted(app, ws, e);
  const redirect = await deliveriesOf(app, ws, endpoints[2]!.id);
  assert.match(redirect[0]!.last_error!, /redirects are not followed/);
  assert.equal(target.received.length, 0, 'the redirect target was never called');
});

test('a receiver that never answers times out on every attempt and is exhausted', async (t) => {
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound() });
  startTestWebhookWorker(app, { retrySchedule: [30, 60], timeoutMs: 300 });
  const ws = await app.workspace();
  const receiver = await startReceiver(t);
  receiver.answer(() => ({ hang: true }));
  const endpoint = await register(app, ws, receiver);
  await retitle(app, ws, await ws.addVideo(), 'Unanswered');
  const delivery = await expectExhausted(app, ws, { name: 'hang', id: endpoint.id, receiver, reason: 'timeout', code: null });
  assert.match(delivery.last_error!, /No complete response within 0.3 s/);
});

test('429 with Retry-After is honoured before the next attempt', async (t) => {
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound() });
  startTestWebhookWorker(app, { retrySchedule: [20, 20] });
  const ws = await app.workspace();
  const receiver = await startReceiver(t);
  receiver.answer((r) => (r.n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 202 }));
  const endpoint = await register(app, ws, receiver);
  await retitle(app, ws, await ws.addVideo(), 'Throttled');

  await eventually(() => receiver.received.length === 2, 'the second attempt');
  const gap = receiver.received[1]!.at - receiver.received[0]!.at;
  assert.ok(gap >= 950, `the retry came ${gap} ms after the 429, not the 1 s Retry-After asked for`);
  await eventually(async () => (await deliveriesOf(app, ws, endpoint.id, '&status=succeeded')).length === 1, 'success');
});

test('410 Gone disables the endpoint; later events wait for it to be resumed', async (t) => {
  const app = await startTestApp(t, { isolated: true, outbound: loopbackOutbound() });
  startTestWebhookWorker(app, { retrySchedule: [20, 20, 20] });
  const ws = await app.workspace();
  const video = await ws.addVideo();
  const receiver = await startReceiver(t);
  receiver.answer(() => ({ status: 410 }));
  const endpoint = await register(app, ws, receiver);
  await retitle(app, ws, video, 'Gone');

  const disabled = await eventually(async () => {
    const list = await app.request('GET', '/v1/webhook-endpoints', { token: ws.key });
    const found = list.body.webhook_endpoints[0];
    return found.active === false ? found : undefined;
  }, 'the endpoint to be disabled');
  assert.match(disabled.disabled_reason, /410 Gone/);
  await retitle(app, ws, video, 'While disabled');
  await eventually(async () => (await deliveriesOf(app, ws, endpoint.id)).length === 2, 'the second event to be recorded');
  const log = await deliveriesOf(app, ws, endpoint.id);
  assert.deepEqual(
    log.map((d) => [d.status, d.attempts, d.last_status_code, d.next_attempt_at]),
    [
      ['pending', 0, null, null],
      ['failed', 1, 410, null],
    ],
  );
  assert.equal(receiver.received.length, 1, 'nothing more is sent to a disabled endpoint');

  receiver.answer(() => ({ status: 200 }));
  const resumed = await app.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { token: ws.key, body: { active: true } });
  assert.equal(resumed.body.disabled_reason, null);
  await eventually(async () => (await deliveriesOf(app, ws, endpoint.id, '&status=succeeded')).length === 2, 'both sent after resuming');
});
