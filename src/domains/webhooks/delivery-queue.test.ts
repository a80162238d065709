/**
 * The deliveries table as a work queue, driven with explicit times (no waiting): fan-out makes one
 * delivery per subscribed endpoint and event, exactly once; claims take leases and count attempts; a
 * dead sender's lease lapses and the delivery is claimed again with the same event id, while the dead
 * sender's late result is refused (fencing); deliveries whose senders keep dying end exhausted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.ts';
import { videoEventData } from '../../../test/helpers/events.ts';
import { recordEvent } from '../../db/outbox.ts';
import { claimDueDeliveries, fanOutEvents, outcomeOf, reapAbandonedDeliveries, recordAttempt } from './delivery-queue.ts';
import type { AttemptResult } from './send-attempt.ts';

const SCHEDULE = [1000, 2000];
// Fan-out, claims and the reaper work on every workspace's rows: each test has a database of its own.
const ok: AttemptResult = {
  succeeded: true,
  statusCode: 200,
  durationMs: 5,
  excerpt: null,
  failureReason: null,
  error: null,
  retryAfterMs: null,
  gone: false,
};
const failed: AttemptResult = { ...ok, succeeded: false, statusCode: 503, failureReason: 'non_2xx', error: 'HTTP 503' };

test('fan-out: one delivery per subscribed endpoint and event, once; later endpoints and test events left out', async (t) => {
  const { workspace, database } = await startTestApp(t, { isolated: true });
  const db = database.db;
  const ws = await workspace();
  const other = await workspace();
  const t0 = new Date(Date.now() - 60_000);
  const all = await ws.addWebhookEndpoint({ events: ['*'] });
  const readyOnly = await ws.addWebhookEndpoint({ events: ['video.ready'] });
  const paused = await ws.addWebhookEndpoint({ events: ['video.updated'], active: false });
  await other.addWebhookEndpoint({ events: ['*'] });
  // A workspace whose plan no longer includes webhooks keeps its endpoint but gets no deliveries.
  const downgraded = await workspace('free');
  await downgraded.addWebhookEndpoint({ events: ['*'] });
  const video = await videoEventData(db, ws.id, await ws.addVideo());
  const update = { ...video, changed: ['title' as const] };
  // Endpoints created now; these events happened a minute ago, before any of them existed...
  await recordEvent(db, { workspaceId: ws.id, type: 'video.updated', data: update, at: t0 });
  const now = new Date();
  const updated = await recordEvent(db, { workspaceId: ws.id, type: 'video.updated', data: update, at: now });
  const ready = await recordEvent(db, { workspaceId: ws.id, type: 'video.ready', data: video, at: now });
  await recordEvent(db, { workspaceId: ws.id, type: 'webhook.test', data: { endpoint_id: all.id, message: 'test' }, at: now });
  const elsewhere = await videoEventData(db, downgraded.id, await downgraded.addVideo());
  await recordEvent(db, { workspaceId: downgraded.id, type: 'video.updated', data: { ...elsewhere, changed: ['title'] }, at: now });

  const first = await fanOutEvents(db, { now, limit: 100, schedule: SCHEDULE });
  assert.deepEqual(first, { events: 5, deliveries: 4 });
  assert.deepEqual(await fanOutEvents(db, { now, limit: 100, schedule: SCHEDULE }), { events: 0, deliveries: 0 }, 'nothing twice');
  const rows = await db.selectFrom('webhook_deliveries').selectAll().orderBy('event_type').orderBy('endpoint_id').execute();
  const pairs = rows
    .map((r) => `${r.endpoint_id === all.id ? 'all' : r.endpoint_id === readyOnly.id ? 'ready' : 'paused'}:${r.event_id}`)
    .sort();
  assert.deepEqual(pairs, [`all:${ready}`, `all:${updated}`, `paused:${updated}`, `ready:${ready}`].sort());
  for (const row of rows) {
    assert.equal(row.status, 'pending');
    assert.equal(row.max_attempts, 3);
    assert.equal(row.workspace_id, ws.id);
    assert.equal(JSON.parse(row.payload).id, row.event_id);
  }

  // Only active endpoints' deliveries are claimed; the paused one waits.
  const claimed = await claimDueDeliveries(db, { workerId: 'w1', leaseMs: 30_000, now, limit: 10 });
  assert.equal(claimed.length, 3);
  assert.ok(claimed.every((c) => c.endpoint_id !== paused.id && c.attempts === 1 && c.url === 'https://hooks.example.com/in'));
});

test('leases: a dead sender’s delivery is claimed again after its lease, and its late result is refused', async (t) => {
  const { workspace, database } = await startTestApp(t, { isolated: true });
  const db = database.db;
  const ws = await workspace();
  const endpoint = await ws.addWebhookEndpoint();
  const start = new Date(Date.now() + 1000);
  await recordEvent(db, { workspaceId: ws.id, type: 'video.ready', data: await videoEventData(db, ws.id, await ws.addVideo()), at: start });
  await fanOutEvents(db, { now: start, limit: 10, schedule: SCHEDULE });

  const [dead] = await claimDueDeliveries(db, { workerId: 'dead', leaseMs: 10_000, now: start, limit: 10 });
  assert.ok(dead);
  const during = new Date(start.getTime() + 9_999);
  assert.deepEqual(
    await claimDueDeliveries(db, { workerId: 'live', leaseMs: 10_000, now: during, limit: 10 }),
    [],
    'leased: not claimable',
  );
  const after = new Date(start.getTime() + 10_001);
  const [again] = await claimDueDeliveries(db, { workerId: 'live', leaseMs: 10_000, now: after, limit: 10 });
  assert.ok(again);
  assert.equal(again.id, dead.id);
  assert.equal(again.event_id, dead.event_id, 'the same webhook-id');
  assert.equal(again.attempts, 2);

  assert.equal(await recordAttempt(db, dead, ok, outcomeOf(dead, ok, SCHEDULE, after), after), false, 'the dead sender is fenced off');
  const stillLeased = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', dead.id).executeTakeFirstOrThrow();
  assert.equal(stillLeased.status, 'pending');
  assert.equal(stillLeased.locked_by, 'live');

  const outcome = outcomeOf(again, failed, SCHEDULE, after, () => 0.5);
  assert.deepEqual(outcome, { status: 'failed', nextAttemptAt: new Date(after.getTime() + 2000) });
  assert.equal(await recordAttempt(db, again, failed, outcome, after), true);
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', dead.id).executeTakeFirstOrThrow();
  assert.equal(row.status, 'failed');
  assert.equal(row.last_status_code, 503);
  assert.equal(row.lease_until, null);
  assert.equal(endpoint.id, row.endpoint_id);

  // The last attempt's sender dies too: with no attempts left, the reaper ends it exhausted.
  const later = new Date(after.getTime() + 2001);
  const [last] = await claimDueDeliveries(db, { workerId: 'doomed', leaseMs: 1000, now: later, limit: 10 });
  assert.equal(last?.attempts, 3);
  assert.equal(await reapAbandonedDeliveries(db, new Date(later.getTime() + 999)), 0, 'not while the lease holds');
  assert.equal(await reapAbandonedDeliveries(db, new Date(later.getTime() + 1001)), 1);
  const reaped = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', dead.id).executeTakeFirstOrThrow();
  assert.equal(reaped.status, 'exhausted');
  assert.match(reaped.last_error ?? '', /sender stopped/);
});
