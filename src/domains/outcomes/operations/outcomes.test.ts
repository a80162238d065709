/**
 * The revenue ledger: record_outcome (validation naming every problem, leads by id or email, refunds
 * bounded by their purchase, idempotent external_id also under concurrent writers, events and lead
 * status), attribution to the videos the lead watched before the entry, and list_outcomes (filters,
 * totals per currency over the whole filter, cursors, masking), over REST and MCP.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { alteringSchema } from '../../../../test/helpers/database.ts';
import { callTool, connectMcp } from '../../../../test/helpers/mcp-client.ts';
import { TIER_SCOPES } from '../../../core/scopes.ts';
import * as outcomesWriteScope from '../../../db/migrations/0013-outcomes-write-scope.ts';
import type { Database } from '../../../db/tables/index.ts';
import { eventPayload } from '../../webhooks/index.ts';

const HOUR = 3_600_000;

/** A view of the video by this browser, started at `startedAt` (as /collect would have stored it). */
async function addView(db: Kysely<Database>, ws: TestWorkspace, videoId: string, viewerId: string, startedAt: Date) {
  await db
    .insertInto('viewing_sessions')
    .values({
      id: randomUUID(),
      workspace_id: ws.id,
      video_id: videoId,
      viewer_id: viewerId,
      day: startedAt.toISOString().slice(0, 10),
      duration_seconds: 60,
      started_at: startedAt,
      last_seen_at: startedAt,
      last_sequence: 1,
      watched: JSON.stringify([[0, 30]]),
      played_seconds: 30,
      is_view: true,
    })
    .execute();
}

async function linkViewer(db: Kysely<Database>, ws: TestWorkspace, leadId: string, viewerId: string) {
  await db
    .insertInto('lead_viewers')
    .values({ workspace_id: ws.id, viewer_id: viewerId, lead_id: leadId, linked_at: new Date() })
    .execute();
}

async function record(harness: TestApp, ws: TestWorkspace, body: Record<string, unknown>) {
  return harness.request('POST', '/v1/outcomes', { token: ws.key, body });
}

test('record_outcome: an unknown email makes a lead (source api), a purchase makes it a customer, events follow', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } });
  const res = await record(harness, ws, {
    kind: 'purchase',
    amount: 4900,
    currency: 'usd',
    email: 'Ada@Example.com',
    description: 'Pro plan',
  });
  assert.equal(res.status, 201, res.raw);
  assert.equal(res.body.created, true);
  assert.equal(res.body.currency, 'USD');
  assert.equal(res.body.value, 4900);
  assert.equal(res.body.status, 'succeeded');
  assert.equal(res.body.source, 'api');
  assert.equal(res.body.lead.email, 'Ada@Example.com');
  const leadId = res.body.lead.lead_id;
  const lead = await harness.database.db.selectFrom('leads').selectAll().where('id', '=', leadId).executeTakeFirstOrThrow();
  assert.deepEqual([lead.source, lead.status], ['api', 'customer']);
  assert.ok(lead.engagement_points > 0, 'a purchase adds engagement');
  const activities = await harness.database.db
    .selectFrom('lead_activities')
    .select(['kind', 'data'])
    .where('lead_id', '=', leadId)
    .execute();
  assert.deepEqual(activities.map((a) => a.kind).sort(), ['outcome', 'status_changed']);
  assert.deepEqual(await harness.eventTypes(ws.id), ['lead.created', 'lead.updated', 'outcome.created']);
  // The lead's journey tells it once: the purchase with its value, and the automatic status change.
  const journey = await harness.request('GET', `/v1/leads/${leadId}/journey`, { token: ws.key });
  assert.equal(journey.status, 200, journey.raw);
  const steps = journey.body.entries.map((e: { kind: string }) => e.kind);
  assert.equal(steps.filter((kind: string) => kind === 'outcome').length, 1, steps.join(', '));
  const step = journey.body.entries.find((e: { kind: string }) => e.kind === 'outcome');
  assert.deepEqual([step.outcome.value, step.outcome.currency, step.outcome.outcome_id], [4900, 'USD', res.body.outcome_id]);

  // The same email in another case finds the same lead, and does not change its address.
  const again = await record(harness, ws, { kind: 'booked_call', amount: 0, currency: 'USD', email: 'ada@example.COM' });
  assert.equal(again.status, 201, again.raw);
  assert.equal(again.body.lead.lead_id, leadId);
  assert.equal(again.body.lead.email, 'Ada@Example.com');
  assert.equal((await harness.eventTypes(ws.id)).at(-1), 'outcome.created', 'a customer stays a customer: no lead.updated');

  // A booked call makes a new lead qualified; a failed purchase changes nothing.
  const caller = await ws.addLead();
  await record(harness, ws, { kind: 'purchase', status: 'failed', amount: 100, currency: 'USD', lead_id: caller });
  await record(harness, ws, { kind: 'booked_call', amount: 0, currency: 'USD', lead_id: caller });
  const qualified = await harness.database.db.selectFrom('leads').select('status').where('id', '=', caller).executeTakeFirstOrThrow();
  assert.equal(qualified.status, 'qualified');
});

test('record_outcome: bad input is a 400 naming every problem, and writes nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const res = await record(harness, ws, { kind: 'sale', amount: -5, currency: 'XYZ', email: 'not-an-email', lead_id: 'nope', extra: 1 });
  assert.equal(res.status, 400, res.raw);
  const fields = res.body.error.details.errors.map((e: { field: string }) => e.field).sort();
  assert.deepEqual(fields, ['amount', 'currency', 'email', 'extra', 'kind', 'lead_id']);
  const currency = res.body.error.details.errors.find((e: { field: string }) => e.field === 'currency');
  assert.match(currency.problem, /ISO 4217/);
  for (const body of [
    { kind: 'purchase', amount: 1.5, currency: 'USD' },
    { kind: 'purchase', amount: 1_000_000_000_001, currency: 'USD' },
    { kind: 'purchase', amount: 100, currency: 'US' },
    { kind: 'purchase', amount: 100 },
  ]) {
    const bad = await record(harness, ws, body);
    assert.equal(bad.status, 400, `${JSON.stringify(body)}: ${bad.raw}`);
  }
  const future = await record(harness, ws, {
    kind: 'purchase',
    amount: 100,
    currency: 'EUR',
    occurred_at: new Date(Date.now() + 2 * HOUR).toISOString(),
    lead_id: await ws.addLead(),
    email: 'both@example.com',
  });
  assert.equal(future.status, 400, future.raw);
  assert.deepEqual(future.body.error.details.errors.map((e: { field: string }) => e.field).sort(), ['email', 'occurred_at']);
  const elsewhere = await harness.workspace();
  const foreign = await record(harness, ws, { kind: 'purchase', amount: 100, currency: 'EUR', lead_id: await elsewhere.addLead() });
  assert.equal(foreign.status, 404, foreign.raw);
  const count = await harness.database.db
    .selectFrom('outcomes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws.id)
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 0);
  assert.deepEqual(await harness.eventTypes(ws.id), []);
});

test('record_outcome: the same external_id answers the first entry and writes nothing, also when sent concurrently', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const body = { kind: 'purchase', amount: 9900, currency: 'EUR', email: 'grace@example.com', external_id: 'order-42' };
  const first = await record(harness, ws, body);
  assert.equal(first.status, 201, first.raw);
  const eventsAfterFirst = await harness.eventTypes(ws.id);
  const replay = await record(harness, ws, { ...body, amount: 1 });
  assert.equal(replay.status, 200, replay.raw);
  assert.equal(replay.body.created, false);
  assert.equal(replay.body.outcome_id, first.body.outcome_id);
  assert.equal(replay.body.value, 9900, 'the entry as first recorded');
  assert.deepEqual(await harness.eventTypes(ws.id), eventsAfterFirst);

  const racing = { kind: 'purchase', amount: 500, currency: 'EUR', email: 'race@example.com', external_id: 'order-43' };
  const answers = await Promise.all(Array.from({ length: 6 }, () => record(harness, ws, racing)));
  for (const answer of answers) assert.ok([200, 201].includes(answer.status), answer.raw);
  assert.equal(new Set(answers.map((a) => a.body.outcome_id)).size, 1, 'one entry for every writer');
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 200, 201]);
  assert.equal(answers.filter((a) => a.body.created).length, 1);
  const rows = await harness.database.db
    .selectFrom('outcomes')
    .select('id')
    .where('workspace_id', '=', ws.id)
    .where('external_id', '=', 'order-43')
    .execute();
  assert.equal(rows.length, 1);
  const leads = await harness.database.db
    .selectFrom('leads')
    .select('id')
    .where('workspace_id', '=', ws.id)
    .where('email', '=', 'race@example.com')
    .execute();
  assert.equal(leads.length, 1);
  assert.equal((await harness.eventTypes(ws.id)).filter((type) => type === 'outcome.created').length, 2);
});

test('record_outcome: refunds name a purchase of the workspace, in its currency, and never add up past it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const leadId = await ws.addLead();
  const purchase = await record(harness, ws, { kind: 'purchase', amount: 10_000, currency: 'USD', lead_id: leadId });
  const purchaseId = purchase.body.outcome_id;
  const partial = await record(harness, ws, { kind: 'refund', amount: 6000, currency: 'USD', refunds_outcome_id: purchaseId });
  assert.equal(partial.status, 201, partial.raw);
  assert.equal(partial.body.refunded_outcome_id, purchaseId);
  assert.equal(partial.body.lead.lead_id, leadId, 'the refund belongs to the buyer');
  // A refund past what is left is a bad amount (400, as Stripe answers it), not a conflict: 409 is for idempotency.
  const tooMuch = await record(harness, ws, { kind: 'refund', amount: 4001, currency: 'USD', refunds_outcome_id: purchaseId });
  assert.equal(tooMuch.status, 400, tooMuch.raw);
  assert.equal(tooMuch.body.error.code, 'invalid_request');
  assert.deepEqual(tooMuch.body.error.details.errors, [
    { field: 'amount', problem: 'must be at most 4000, what is left to refund of that purchase (4000 USD of its 10000 USD)' },
  ]);
  assert.match(tooMuch.body.error.message, /^The request has 1 problem: amount: must be at most 4000, /);
  const { errors: _listed, ...details } = tooMuch.body.error.details;
  assert.deepEqual(details, { reason: 'refund_exceeds_purchase', refundable: 4000, currency: 'USD', outcome_id: purchaseId });
  const otherCurrency = await record(harness, ws, { kind: 'refund', amount: 1, currency: 'EUR', refunds_outcome_id: purchaseId });
  assert.equal(otherCurrency.status, 400, otherCurrency.raw);
  const refundOfRefund = await record(harness, ws, {
    kind: 'refund',
    amount: 1,
    currency: 'USD',
    refunds_outcome_id: partial.body.outcome_id,
  });
  assert.equal(refundOfRefund.status, 400, refundOfRefund.raw);
  const notRefund = await record(harness, ws, { kind: 'purchase', amount: 1, currency: 'USD', refunds_outcome_id: purchaseId });
  assert.equal(notRefund.status, 400, notRefund.raw);
  const elsewhere = await harness.workspace();
  const foreign = await record(harness, ws, {
    kind: 'refund',
    amount: 1,
    currency: 'USD',
    refunds_outcome_id: await elsewhere.addOutcome(),
  });
  assert.equal(foreign.status, 404, foreign.raw);

  // Concurrent refunds of what is left: the purchase row is locked, so at most one of them fits.
  const racing = await Promise.all(
    Array.from({ length: 4 }, () => record(harness, ws, { kind: 'refund', amount: 3000, currency: 'USD', refunds_outcome_id: purchaseId })),
  );
  assert.deepEqual(racing.map((r) => r.status).sort(), [201, 400, 400, 400]);
  for (const refused of racing.filter((r) => r.status === 400)) {
    assert.equal(refused.body.error.details.refundable, 1000, refused.raw);
    assert.equal(refused.body.error.details.errors[0].field, 'amount');
  }
  const nothingLeft = await record(harness, ws, { kind: 'refund', amount: 1001, currency: 'USD', refunds_outcome_id: purchaseId });
  assert.match(nothingLeft.body.error.details.errors[0].problem, /^must be at most 1000, /);
  assert.equal((await record(harness, ws, { kind: 'refund', amount: 1000, currency: 'USD', refunds_outcome_id: purchaseId })).status, 201);
  const exhausted = await record(harness, ws, { kind: 'refund', amount: 1, currency: 'USD', refunds_outcome_id: purchaseId });
  assert.equal(exhausted.status, 400, exhausted.raw);
  assert.deepEqual(exhausted.body.error.details.errors, [
    { field: 'amount', problem: 'is more than is left to refund of that purchase: nothing is left (its 10000 USD are refunded already)' },
  ]);
  const refunded = await harness.database.db
    .selectFrom('outcomes')
    .select((eb) => eb.fn.sum<number>('amount').as('total'))
    .where('refunded_outcome_id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  assert.equal(Number(refunded.total), 10_000);
});

test('attribution: first touch is the earliest view, last touch the last video watched before the entry', async (t) => {
  const harness = await startTestApp(t);
  const { db } = harness.database;
  const ws = await harness.workspace();
  const intro = await ws.addVideo({ title: 'Intro' });
  const demo = await ws.addVideo({ title: 'Demo' });
  const pricing = await ws.addVideo({ title: 'Pricing' });
  const leadId = await ws.addLead();
  const laptop = `viewer-${randomUUID()}`;
  const phone = `viewer-${randomUUID()}`;
  await linkViewer(db, ws, leadId, laptop);
  await linkViewer(db, ws, leadId, phone);
  const now = Date.now();
  await addView(db, ws, intro, laptop, new Date(now - 72 * HOUR));
  await addView(db, ws, demo, phone, new Date(now - 24 * HOUR));
  await addView(db, ws, pricing, laptop, new Date(now - 1 * HOUR)); // after the purchase below
  await addView(db, ws, pricing, `viewer-${randomUUID()}`, new Date(now - 3 * HOUR)); // someone else's browser

  const purchase = await record(harness, ws, {
    kind: 'purchase',
    amount: 2500,
    currency: 'GBP',
    lead_id: leadId,
    occurred_at: new Date(now - 2 * HOUR).toISOString(),
  });
  assert.equal(purchase.status, 201, purchase.raw);
  assert.deepEqual(purchase.body.first_touch_video, { video_id: intro, title: 'Intro' });
  assert.deepEqual(purchase.body.last_touch_video, { video_id: demo, title: 'Demo' });
  const later = await record(harness, ws, { kind: 'booked_call', amount: 0, currency: 'GBP', lead_id: leadId, video_id: intro });
  assert.deepEqual(later.body.last_touch_video, { video_id: pricing, title: 'Pricing' });
  assert.deepEqual(later.body.video, { video_id: intro, title: 'Intro' });

  const byDemo = await harness.request('GET', `/v1/outcomes?video_id=${demo}`, { token: ws.key });
  assert.deepEqual(
    byDemo.body.outcomes.map((o: { outcome_id: string }) => o.outcome_id),
    [purchase.body.outcome_id],
  );
  const byIntro = await harness.request('GET', `/v1/outcomes?video_id=${intro}`, { token: ws.key });
  assert.equal(byIntro.body.pagination.total, 2, 'named video and first touch both match');

  const anonymous = await record(harness, ws, { kind: 'purchase', amount: 100, currency: 'GBP' });
  assert.deepEqual([anonymous.body.lead, anonymous.body.first_touch_video, anonymous.body.last_touch_video], [null, null, null]);
});

test('list_outcomes: filters, totals per currency over the whole filter, cursors, masking on both transports', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const ada = await ws.addLead({ email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' });
  const bob = await ws.addLead({ email: 'bob@example.com' });
  const day = (d: string, h = 12) => new Date(`${d}T${String(h).padStart(2, '0')}:00:00Z`);
  const p1 = await ws.addOutcome({ lead_id: ada, amount: 10_000, currency: 'USD', occurred_at: day('2026-10-01') });
  await ws.addOutcome({
    lead_id: ada,
    kind: 'refund',
    amount: 2500,
    currency: 'USD',
    refunded_outcome_id: p1,
    occurred_at: day('2026-10-02'),
  });
  await ws.addOutcome({ lead_id: bob, amount: 5000, currency: 'EUR', occurred_at: day('2026-10-03') });
  await ws.addOutcome({ lead_id: bob, amount: 7000, currency: 'USD', status: 'failed', occurred_at: day('2026-10-04') });
  await ws.addOutcome({ lead_id: bob, kind: 'booked_call', amount: 0, currency: 'USD', occurred_at: day('2026-10-05') });

  const all = await harness.request('GET', '/v1/outcomes', { token: ws.key });
  assert.equal(all.status, 200, all.raw);
  assert.equal(all.body.pagination.total, 5);
  assert.deepEqual(
    all.body.outcomes.map((o: { occurred_at: string }) => o.occurred_at.slice(0, 10)),
    ['2026-10-05', '2026-10-04', '2026-10-03', '2026-10-02', '2026-10-01'],
  );
  assert.deepEqual(all.body.totals, {
    count: 5,
    by_currency: [
      { currency: 'EUR', count: 1, purchases: 5000, refunds: 0, net: 5000 },
      { currency: 'USD', count: 4, purchases: 10_000, refunds: 2500, net: 7500 },
    ],
  });
  assert.equal(all.body.pii_redacted, true);
  assert.equal(all.body.outcomes[4].lead.email, 'a***@e***.com');
  assert.equal(all.body.outcomes[4].lead.name, 'A***');

  const page1 = await harness.request('GET', '/v1/outcomes?limit=2&kind=purchase', { token: ws.key });
  assert.equal(page1.body.pagination.total, 3);
  assert.equal(page1.body.totals.count, 3, 'totals cover every page');
  const page2 = await harness.request(
    'GET',
    `/v1/outcomes?limit=2&kind=purchase&cursor=${encodeURIComponent(page1.body.pagination.next_cursor)}`,
    {
      token: ws.key,
    },
  );
  assert.equal(page2.status, 200, page2.raw);
  assert.deepEqual(
    page2.body.outcomes.map((o: { outcome_id: string }) => o.outcome_id),
    [p1],
  );
  const otherFilter = await harness.request('GET', `/v1/outcomes?limit=2&cursor=${encodeURIComponent(page1.body.pagination.next_cursor)}`, {
    token: ws.key,
  });
  assert.equal(otherFilter.status, 400);

  const filtered = async (query: string) => (await harness.request('GET', `/v1/outcomes?${query}`, { token: ws.key })).body;
  assert.equal((await filtered(`lead_id=${ada}`)).pagination.total, 2);
  assert.equal((await filtered('status=failed')).pagination.total, 1);
  assert.equal((await filtered('kind=refund')).totals.by_currency[0].net, -2500);
  assert.equal((await filtered('from_date=2026-10-02&to_date=2026-10-03')).pagination.total, 2);
  assert.equal((await filtered('from_date=1970-01-01&to_date=9999-12-31')).pagination.total, 5, 'the first and last days there are');
  assert.equal((await harness.request('GET', '/v1/outcomes?from_date=2026-10-05&to_date=2026-10-01', { token: ws.key })).status, 400);

  // The workspace's time zone decides where a day begins: 23:00 UTC on Oct 3rd is Oct 4th in Paris.
  await ws.addOutcome({ lead_id: bob, amount: 1, currency: 'USD', occurred_at: day('2026-10-03', 23) });
  assert.equal((await filtered('to_date=2026-10-03&from_date=2026-10-03')).pagination.total, 2);
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone: 'Europe/Paris' } });
  assert.equal((await filtered('to_date=2026-10-03&from_date=2026-10-03')).pagination.total, 1);

  const mcp = await connectMcp(t, harness.app, ws.key);
  const listed = await callTool(mcp, 'list_outcomes', { lead_id: ada });
  assert.equal(listed.isError, undefined, JSON.stringify(listed.content));
  assert.equal(listed.structuredContent.outcomes[0].lead.email, 'a***@e***.com');
  assert.equal(listed.structuredContent.pii_redacted, true);
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } });
  const unmasked = await callTool(mcp, 'list_outcomes', { lead_id: ada });
  assert.equal(unmasked.structuredContent.outcomes[0].lead.email, 'ada@example.com');
  assert.equal(unmasked.structuredContent.outcomes[0].lead.name, 'Ada Lovelace');
  assert.equal(unmasked.structuredContent.pii_redacted, false);

  const reader = await ws.mintKey({ scopes: ['outcomes:read'] });
  assert.equal((await harness.request('GET', '/v1/outcomes', { token: reader.key })).status, 200);
  assert.equal(
    (await harness.request('POST', '/v1/outcomes', { token: reader.key, body: { kind: 'purchase', amount: 1, currency: 'USD' } })).status,
    403,
  );
  const other = await harness.workspace();
  assert.equal((await harness.request('GET', '/v1/outcomes', { token: other.key })).body.pagination.total, 0);
});

test('record_outcome over MCP, and outcome.created as a webhook delivers it: masked while the workspace masks', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const mcp = await connectMcp(t, harness.app, ws.key);
  const result = await callTool(mcp, 'record_outcome', {
    kind: 'purchase',
    amount: 120_000,
    currency: 'EUR',
    email: 'jo@example.com',
    external_id: 'cs_test_1',
    idempotency_key: 'k-1',
  });
  assert.equal(result.isError, undefined, JSON.stringify(result.content));
  assert.equal(result.structuredContent.created, true);
  assert.equal(result.structuredContent.lead.email, 'j***@e***.com');
  const again = await callTool(mcp, 'record_outcome', { kind: 'purchase', amount: 120_000, currency: 'EUR', external_id: 'cs_test_1' });
  assert.equal(again.structuredContent.created, false);
  assert.equal(again.structuredContent.outcome_id, result.structuredContent.outcome_id);

  const event = await harness.database.db
    .selectFrom('events')
    .selectAll()
    .where('workspace_id', '=', ws.id)
    .where('type', '=', 'outcome.created')
    .executeTakeFirstOrThrow();
  const payload = JSON.parse(
    eventPayload({ id: event.id, type: event.type, workspaceId: ws.id, createdAt: event.created_at, data: event.data }, true),
  );
  assert.equal(payload.type, 'outcome.created');
  assert.equal(payload.data.outcome_id, result.structuredContent.outcome_id);
  assert.deepEqual(payload.data.outcome.lead, { lead_id: result.structuredContent.lead.lead_id, email: 'j***@e***.com', name: null });
  assert.equal(payload.data.outcome.value, 120_000);
  const clear = JSON.parse(
    eventPayload({ id: event.id, type: event.type, workspaceId: ws.id, createdAt: event.created_at, data: event.data }, false),
  );
  assert.equal(clear.data.outcome.lead.email, 'jo@example.com');
});

test('migration 0013: write and admin keys made before outcomes:write gain it; narrower keys do not', async (t) => {
  // Takes the migration down and up again: a database of its own, not the file's shared one.
  const harness = await startTestApp(t, { isolated: true });
  const ws = await harness.workspace();
  const untyped = harness.database.db as unknown as Kysely<unknown>;
  await alteringSchema(() => outcomesWriteScope.down(untyped));
  const without = (tier: 'write' | 'admin') => TIER_SCOPES[tier].filter((scope) => scope !== 'outcomes:write');
  const writer = await ws.mintKey({ scopes: without('write') });
  const admin = await ws.mintKey({ scopes: without('admin') });
  const videosOnly = await ws.mintKey({ scopes: ['videos:read', 'videos:write'] });
  await alteringSchema(() => outcomesWriteScope.up(untyped));
  const scopesOf = async (id: string) =>
    (await harness.database.db.selectFrom('credentials').select('scopes').where('id', '=', id).executeTakeFirstOrThrow()).scopes;
  assert.deepEqual(await scopesOf(writer.id), [...TIER_SCOPES.write]);
  assert.deepEqual(await scopesOf(admin.id), [...TIER_SCOPES.admin]);
  assert.deepEqual(await scopesOf(videosOnly.id), ['videos:read', 'videos:write']);
  const recorded = await harness.request('POST', '/v1/outcomes', {
    token: writer.key,
    body: { kind: 'purchase', amount: 1, currency: 'USD' },
  });
  assert.equal(recorded.status, 201, recorded.raw);
});

test('record_outcome takes the amount as value too, the name every outcome answers with', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const sent = await record(harness, ws, { kind: 'purchase', value: 4900, currency: 'USD', external_id: 'value-1' });
  assert.equal(sent.status, 201, sent.raw);
  assert.equal(sent.body.value, 4900);
  // What a client read can be sent back as it is (minus what the server owns).
  const again = await record(harness, ws, { kind: sent.body.kind, value: sent.body.value, currency: sent.body.currency });
  assert.equal(again.status, 201, again.raw);

  const both = await record(harness, ws, { kind: 'purchase', amount: 100, value: 100, currency: 'USD' });
  assert.equal(both.status, 400);
  assert.deepEqual(both.body.error.details.errors, [
    { field: 'value', problem: 'must not be given with amount: they are one field under two names' },
  ]);
  const neither = await record(harness, ws, { kind: 'purchase', currency: 'USD', description: '' });
  assert.equal(neither.status, 400);
  assert.deepEqual(
    neither.body.error.details.errors.map((p: { field: string }) => p.field),
    ['description'],
    'a shape problem is answered first, with every other shape problem',
  );
  const missing = await record(harness, ws, { kind: 'purchase', currency: 'USD' });
  assert.deepEqual(missing.body.error.details.errors, [
    { field: 'amount', problem: 'is required (in minor units, 4900 = 49.00 USD), as amount or as value' },
  ]);
  const tooMuch = await record(harness, ws, { kind: 'refund', value: 5000, currency: 'USD', refunds_outcome_id: sent.body.outcome_id });
  assert.equal(tooMuch.status, 400, tooMuch.raw);
  assert.equal(tooMuch.body.error.details.errors[0].field, 'value', 'the problem names the field the caller sent');
});

test('list_outcomes by a lead or video not of the workspace is not_found, not an empty ledger', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const theirLead = await other.addLead({ first_name: 'Theirs' });
  const theirVideo = await other.addVideo({ title: 'Their video' });
  await other.addOutcome({ lead_id: theirLead, video_id: theirVideo });
  for (const [field, id, what] of [
    ['lead_id', theirLead, 'lead'],
    ['lead_id', randomUUID(), 'lead'],
    ['video_id', theirVideo, 'video'],
    ['video_id', randomUUID(), 'video'],
  ] as const) {
    const res = await harness.request('GET', `/v1/outcomes?${field}=${id}`, { token: ws.key });
    assert.equal(res.status, 404, res.raw);
    assert.deepEqual([res.body.error.code, res.body.error.message], ['not_found', `No ${what} with id ${id} in this workspace.`]);
    assert.ok(!res.raw.includes('Their'));
  }
  const mine = await harness.request('GET', `/v1/outcomes?lead_id=${await ws.addLead()}&video_id=${await ws.addVideo()}`, {
    token: ws.key,
  });
  assert.equal(mine.status, 200, mine.raw);
  assert.deepEqual(mine.body.outcomes, []);
});
