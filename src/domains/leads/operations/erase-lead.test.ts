/**
 * erase_lead, called as a signed-in owner through the pipeline (GDPR Art. 17). A person who reached
 * the workspace every way there is (an API upsert with an idempotency key, notes, a video's lead form
 * from a browser that watched, a route visit, a channel view, a booking, a purchase, webhook
 * deliveries of all of it) is erased, and then no table of the database holds their email, name or
 * phone in any column, while revenue totals and ledger entries stay as they were.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { signIn } from '../../../../test/helpers/dashboard.ts';
import { addRouteVisits } from '../../../../test/helpers/route-visit-rows.ts';
import { BROWSER, pageView, watch } from '../../../../test/helpers/viewing.ts';
import { hasPersonalData } from '../../../core/pii.ts';
import type { Database } from '../../../db/tables/index.ts';
import { EVENT_CATALOG, EVENT_TYPES } from '../../../event-catalog.ts';
import { queueEmail, renderEmail } from '../../email/index.ts';
import { fanOutEvents } from '../../webhooks/index.ts';
import { PERSONAL_EVENT_TYPES } from './erase-lead.ts';

/** Every table of the schema the test runs in (public, or the test's own on PostgreSQL), and how many rows of each hold `needle`. */
async function tablesHolding(db: Kysely<Database>, needle: string): Promise<Record<string, number>> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  assert.ok(tables.length > 40, `every table: ${tables.length}`);
  const found: Record<string, number> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(name)} as t where strpos(lower(t::text), ${needle.toLowerCase()}) > 0`.execute(db);
    if ((rows[0]?.n ?? 0) > 0) found[name] = rows[0]?.n ?? 0;
  }
  return found;
}

/** The next weekday at 10:00 UTC at least two days ahead: a slot the test's event type offers. */
function offeredStart(): string {
  const day = new Date(Date.now() + 2 * 86_400_000);
  while ([0, 6].includes(day.getUTCDay())) day.setUTCDate(day.getUTCDate() + 1);
  return `${day.toISOString().slice(0, 10)}T10:00:00.000Z`;
}

async function capture(harness: TestApp, body: unknown) {
  const res = await harness.app.inject({
    method: 'POST',
    url: '/leads/capture',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    payload: JSON.stringify(body),
  });
  assert.equal(res.statusCode, 202, res.body);
}

test('after erase_lead no table holds the person’s email, name or phone, and revenue totals are unchanged', async (t) => {
  // Fan-out turns every workspace's events into deliveries: a database of its own.
  const harness = await startTestApp(t, { isolated: true });
  const { request, database } = harness;
  const db = database.db;
  const ws = await harness.workspace('business');
  const owner = await signIn(harness, ws.id, 'owner');
  // Unmasked, so payloads and stored answers hold the plain address, as a search would find it.
  assert.equal((await request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } })).status, 200);
  const tag = randomUUID().slice(0, 8);
  const email = `Quill.Feather+${tag}@Example.com`;
  const name = `Zephyrine Quillfeather${tag}`;
  const phone = `+44 20 7946 ${String(Math.floor(Math.random() * 9000) + 1000)}`;
  const viewerId = `viewer_${tag}${randomUUID().replaceAll('-', '')}`.slice(0, 40);
  await db
    .insertInto('webhook_endpoints')
    .values({
      id: randomUUID(),
      workspace_id: ws.id,
      name: 'CRM',
      url: 'https://hooks.example.com/crm',
      events: ['*'],
      active: true,
      secret_sealed: 'x',
      created_at: new Date(Date.now() - 60_000),
      updated_at: new Date(),
    })
    .execute();

  // The API: a lead made with an idempotency key (its answer is stored), then a note naming them.
  const upserted = await request('PUT', '/v1/leads', {
    token: ws.key,
    headers: { 'idempotency-key': `lead-${tag}` },
    body: { email, first_name: 'Zephyrine', last_name: `Quillfeather${tag}`, phone, custom_fields: { company: `Feather ${tag}` } },
  });
  assert.equal(upserted.status, 201, upserted.raw);
  const leadId = upserted.body.lead_id as string;
  const noted = await request('PATCH', `/v1/leads/${leadId}`, {
    token: ws.key,
    body: { name, notes: `Called ${name} at ${phone}; write to ${email}.` },
  });
  assert.equal(noted.status, 200, noted.raw);

  // A browser of theirs watched a video and sent its lead form; it visited a route and the channel.
  const videoId = await ws.addVideo({ title: 'Pricing walkthrough', duration_seconds: 60 });
  const form = await request('PATCH', `/v1/videos/${videoId}`, {
    token: ws.key,
    body: { lead_form: { placement: 'at_second', at_second: 10, fields: ['first_name', 'phone'] } },
  });
  assert.equal(form.status, 200, form.raw);
  await watch(harness, videoId, viewerId, [
    [
      { type: 'play', position: 0 },
      { type: 'progress', ranges: [[0, 30]] },
    ],
  ]);
  await capture(harness, { token: pageView(videoId).token, viewer_id: viewerId, email, first_name: 'Zephyrine', phone });
  const route = await ws.addRoute({ videoIds: [videoId] });
  const [visit] = await addRouteVisits(db, [
    {
      workspaceId: ws.id,
      routeId: route.id,
      viewerId,
      startedAt: new Date(),
      endedBy: 'lead_form',
      steps: [{ stepId: route.stepIds[0] as string }],
    },
  ]);
  await db
    .updateTable('route_visits')
    .set({ lead_id: leadId })
    .where('id', '=', visit as string)
    .execute();
  await db
    .insertInto('channel_views')
    .values({ id: randomUUID(), workspace_id: ws.id, viewer_id: viewerId, viewed_at: new Date() })
    .execute();

  // A booking under their address, and a purchase whose description names them.
  const eventTypeId = await ws.addEventType({ value_amount: 15000, value_currency: 'USD' });
  const booked = await request('POST', '/v1/bookings', {
    token: ws.key,
    body: { event_type_id: eventTypeId, start: offeredStart(), invitee_email: email, invitee_name: name, invitee_phone: phone },
  });
  assert.equal(booked.status, 201, booked.raw);
  const bought = await request('POST', '/v1/outcomes', {
    token: ws.key,
    body: { kind: 'purchase', amount: 9900, currency: 'USD', email, external_id: `order-${tag}`, description: `Annual plan for ${name}` },
  });
  assert.equal(bought.status, 201, bought.raw);
  // Someone else, who stays.
  const other = await request('PUT', '/v1/leads', { token: ws.key, body: { email: `someone-else-${tag}@example.com` } });
  assert.equal(other.status, 201, other.raw);

  // Every event so far becomes a delivery to the endpoint.
  const fanned = await fanOutEvents(db, { now: new Date(), limit: 1000, schedule: [1000] });
  assert.ok(fanned.deliveries > 5, `deliveries: ${fanned.deliveries}`);

  // A message to them waits in the email outbox (a booking confirmation, issue 30).
  await queueEmail(
    db,
    {
      workspaceId: ws.id,
      to: { address: email, name },
      subject: 'Your call is booked',
      ...renderEmail({ heading: `Hi ${name}`, paragraphs: ['See you soon.'] }),
      purpose: 'booking_confirmation',
    },
    new Date(),
  );

  // Before: the person is in many tables.
  const before = await tablesHolding(db, email);
  for (const table of ['leads', 'bookings', 'events', 'webhook_deliveries', 'email_outbox'])
    assert.ok(before[table], `${table} holds the email before`);
  assert.ok((await tablesHolding(db, name)).lead_activities, 'the note names them');
  assert.ok((await tablesHolding(db, `Annual plan for ${name}`)).outcomes, 'the purchase names them');
  const stored = () =>
    db.selectFrom('idempotency_keys').select('key').where('workspace_id', '=', ws.id).where('key', '=', `lead-${tag}`).execute();
  assert.equal((await stored()).length, 1);
  const revenue = async () => ({
    summary: (await request('GET', '/v1/analytics/summary?range=28d', { token: ws.key })).body.revenue,
    outcomes: (await request('GET', '/v1/outcomes?limit=100', { token: ws.key })).body.totals,
    entries: (await request('GET', '/v1/outcomes?limit=100', { token: ws.key })).body.outcomes.length,
  });
  const revenueBefore = await revenue();

  const erased = await owner.call('erase_lead', { lead_id: leadId });
  assert.equal(erased.status, 200, JSON.stringify(erased.body));
  const answer = erased.body as {
    kept_anonymous: Record<string, number>;
    removed: { events: number; webhook_deliveries: number; idempotent_responses: number; emails: number };
  };
  assert.deepEqual(answer.kept_anonymous, { outcomes: 2, bookings: 1, browsers: 1 });
  assert.equal(answer.removed.idempotent_responses, 1);
  assert.equal(answer.removed.emails, 1);
  assert.ok(answer.removed.events >= 5 && answer.removed.webhook_deliveries === answer.removed.events, JSON.stringify(answer.removed));

  // No column of any row of any table holds them.
  const digits = phone.replace(/\D/g, '');
  for (const needle of [email, name, `Quillfeather${tag}`, phone, digits, viewerId]) {
    assert.deepEqual(await tablesHolding(db, needle), {}, `rows still holding ${needle}`);
  }
  // The id alone is left, naming nothing: in lead.deleted, and in the audit log, which names objects by
  // id and never copies a lead's fields (docs/people.md, "The audit log").
  const idHolders = await tablesHolding(db, leadId);
  assert.deepEqual(
    Object.keys(idHolders).sort(),
    ['audit_events', 'events'],
    'the lead id is left in lead.deleted and the audit log alone',
  );
  assert.equal(idHolders.events, 1);
  assert.deepEqual(await stored(), [], 'the stored answer holding the address is gone');

  // Revenue and the ledger are as they were; the booking still blocks its time.
  assert.deepEqual(await revenue(), revenueBefore);
  const booking = (await request('GET', `/v1/bookings/${booked.body.booking_id}`, { token: ws.key })).body;
  assert.deepEqual([booking.status, booking.invitee_email, booking.invitee_name, booking.lead_id], ['confirmed', null, null, null]);
  const cancelLink = new URL(booked.body.cancel_url);
  const cancelPage = await request('GET', `${cancelLink.pathname}${cancelLink.search}`);
  assert.equal(cancelPage.status, 404, 'the invitee’s cancel link no longer opens the booking');

  // The API knows nothing of them; the other lead is untouched; one event says the lead went, with its id alone.
  assert.equal((await request('GET', `/v1/leads/${leadId}`, { token: ws.key })).status, 404);
  const listed = (await request('GET', '/v1/leads', { token: ws.key })).body.leads.map((lead: { lead_id: string }) => lead.lead_id);
  assert.deepEqual(listed, [other.body.lead_id]);
  const deletedEvents = await db
    .selectFrom('events')
    .select('data')
    .where('workspace_id', '=', ws.id)
    .where('type', '=', 'lead.deleted')
    .execute();
  assert.deepEqual(
    deletedEvents.map((row) => (typeof row.data === 'string' ? JSON.parse(row.data) : row.data)),
    [{ lead_id: leadId }],
  );
  // Their browser's viewing still counts, under an id linked to nobody.
  const sessions = await db.selectFrom('viewing_sessions').select('viewer_id').where('workspace_id', '=', ws.id).execute();
  assert.equal(sessions.length, 1);
  assert.match(sessions[0]?.viewer_id ?? '', /^erased_[0-9a-f]{32}$/);
  const visits = await db.selectFrom('route_visits').select(['viewer_id', 'lead_id']).where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(visits, [{ viewer_id: sessions[0]?.viewer_id, lead_id: null }], 'the visit stays, with the same anonymous browser');
});

test('a browser another lead shares keeps its history; only its link to the erased lead goes', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('pro');
  const owner = await signIn(harness, ws.id, 'admin');
  const db = harness.database.db;
  const shared = `viewer_shared_${randomUUID().replaceAll('-', '')}`.slice(0, 40);
  const videoId = await ws.addVideo({ duration_seconds: 60 });
  await watch(harness, videoId, shared, [[{ type: 'progress', ranges: [[0, 20]] }]]);
  const first = await ws.addLead({ email: `first-${randomUUID().slice(0, 6)}@example.com` });
  const second = await ws.addLead({ email: `second-${randomUUID().slice(0, 6)}@example.com` });
  const at = new Date();
  await db
    .insertInto('lead_viewers')
    .values([
      { workspace_id: ws.id, viewer_id: shared, lead_id: first, linked_at: at },
      { workspace_id: ws.id, viewer_id: shared, lead_id: second, linked_at: at },
    ])
    .execute();
  const erased = await owner.call('erase_lead', { lead_id: first });
  assert.equal(erased.status, 200, JSON.stringify(erased.body));
  assert.equal((erased.body as { kept_anonymous: { browsers: number } }).kept_anonymous.browsers, 0);
  const sessions = await db.selectFrom('viewing_sessions').select('viewer_id').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(sessions, [{ viewer_id: shared }]);
  const journey = await harness.request('GET', `/v1/leads/${second}/journey`, { token: ws.key });
  assert.equal(journey.status, 200, journey.raw);
  assert.ok(journey.raw.includes(videoId), 'the other lead’s journey still has the view');
});

test('erase_lead: only owners and admins; another workspace’s lead is not found', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('pro');
  const leadId = await ws.addLead();
  const member = await signIn(harness, ws.id, 'member');
  assert.equal((await member.call('erase_lead', { lead_id: leadId })).status, 403);
  const stranger = await signIn(harness, (await harness.workspace('pro')).id, 'owner');
  assert.equal((await stranger.call('erase_lead', { lead_id: leadId })).status, 404);
  assert.equal((await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key })).status, 200, 'still there');
});

test('the outbox is searched in every event type that can hold a lead', () => {
  // lead.deleted carries the id of a lead already gone: there is nothing to erase in it.
  const holding = EVENT_TYPES.filter((type) => {
    if (type === 'lead.deleted') return false;
    const schema = EVENT_CATALOG[type].data;
    return hasPersonalData(schema as unknown as Parameters<typeof hasPersonalData>[0]) || JSON.stringify(schema).includes('"lead_id"');
  });
  assert.deepEqual([...holding].sort(), [...PERSONAL_EVENT_TYPES].sort());
});
