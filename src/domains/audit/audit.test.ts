/**
 * The audit log (issue 27, DESIGN §10): every write through REST and MCP leaves exactly one event
 * naming the credential, the object and where the call came from (the forwarded client only behind a
 * trusted proxy); reads, failed and rolled-back writes and idempotent replays leave none;
 * list_audit_events filters by actor, action, object and time and pages newest first; another
 * workspace's events are never listed; the public pages, Stripe and the command line record theirs
 * as `system` or `cli`, the public ones without any address; and no event holds a lead's email, name
 * or phone.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { Type } from 'typebox';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../test/helpers/mcp-client.ts';
import { BROWSER, pageView } from '../../../test/helpers/viewing.ts';
import { catalog } from '../../catalog.ts';
import { AppError } from '../../core/errors.ts';
import { defineOperation } from '../../core/operation.ts';
import { TIER_SCOPES } from '../../core/scopes.ts';
import { createWorkspace } from '../../create-workspace.ts';
import { parseCidr } from '../../net/address-policy.ts';

const CLIENT = 'audit-tests/1.0';

/** The workspace's audit events through list_audit_events, newest first; `query` without the `?`. */
async function auditEvents(harness: TestApp, ws: TestWorkspace, query = '') {
  const res = await harness.request('GET', `/v1/audit-events${query ? `?${query}` : ''}`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  return res.body as {
    // biome-ignore lint/suspicious/noExplicitAny: assertions read the events' fields
    audit_events: any[];
    pagination: { total: number; limit: number; has_more: boolean; next_cursor: string | null };
  };
}

/** Every audit row of the workspace, as the database holds it, as one text each: for "nothing personal" checks. */
async function auditRowsText(harness: TestApp, workspaceId: string): Promise<string[]> {
  const rows = await harness.database.db
    .selectFrom('audit_events as a')
    .select(sql<string>`row_to_json(a)::text`.as('text'))
    .where('a.workspace_id', '=', workspaceId)
    .execute();
  return rows.map((row) => row.text);
}

test('a write over REST leaves one event: the key, the object, the client’s address and User-Agent; a replay and a read add none', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const { id: keyId, key } = await ws.mintKey();
  const headers = { 'user-agent': CLIENT, 'idempotency-key': `audit-${randomUUID()}` };
  const created = await harness.request('POST', '/v1/folders', { token: key, body: { name: 'Audited' }, headers });
  assert.equal(created.status, 201, created.raw);
  const replayed = await harness.request('POST', '/v1/folders', { token: key, body: { name: 'Audited' }, headers });
  assert.equal(replayed.headers['idempotency-replayed'], 'true');
  assert.equal((await harness.request('GET', '/v1/folders', { token: key })).status, 200);

  const folderId = created.body.folder_id as string;
  const listed = await auditEvents(harness, ws, `object_id=${folderId}`);
  assert.equal(listed.pagination.total, 1, JSON.stringify(listed));
  const [event] = listed.audit_events;
  assert.match(event.audit_event_id, /^[0-9a-f-]{36}$/);
  assert.ok(Math.abs(Date.parse(event.at) - Date.now()) < 60_000, event.at);
  assert.deepEqual(
    { ...event, audit_event_id: undefined, at: undefined },
    {
      audit_event_id: undefined,
      at: undefined,
      actor: { kind: 'api_key', id: keyId, name: 'test key' },
      action: 'create_folder',
      object: { kind: 'folder', id: folderId },
      origin: { transport: 'rest', address: '127.0.0.1', user_agent: CLIENT },
      details: { request_id: created.headers['x-request-id'] },
    },
  );

  // The object is the path's id, in the case the database keeps it, whatever case the path used.
  const videoId = await ws.addVideo();
  const updated = await harness.request('PATCH', `/v1/videos/${videoId.toUpperCase()}`, { token: key, body: { title: 'Renamed' } });
  assert.equal(updated.status, 200, updated.raw);
  const [update] = (await auditEvents(harness, ws, `object_id=${videoId}`)).audit_events;
  assert.deepEqual([update.action, update.object], ['update_video', { kind: 'video', id: videoId }]);
  // The kind follows the resource the id names: create_api_key's key_id is an api_key, as delete_api_key's path says.
  const minted = await harness.request('POST', '/v1/api-keys', { token: key, body: { name: 'Short-lived', scope: 'videos:read' } });
  assert.equal(minted.status, 201, minted.raw);
  const revoked = await harness.request('DELETE', `/v1/api-keys/${minted.body.key_id}`, { token: key });
  assert.equal(revoked.status, 200, revoked.raw);
  const keyEvents = (await auditEvents(harness, ws, `object_id=${minted.body.key_id}`)).audit_events;
  assert.deepEqual(
    keyEvents.map((e) => [e.action, e.object.kind]),
    [
      ['delete_api_key', 'api_key'],
      ['create_api_key', 'api_key'],
    ],
  );
  // Secrets are never copied: not the key minted, not the one that minted it.
  for (const text of await auditRowsText(harness, ws.id)) {
    assert.ok(!text.includes(minted.body.key) && !text.includes(key), text);
  }
});

test('a write over MCP leaves one event by the assistant, from MCP; a tool that reads leaves none', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const { id: tokenId, key } = await ws.mintKey({ kind: 'assistant' });
  const client = await connectMcp(t, harness.app, key);
  const result = await callTool(client, 'create_folder', { name: 'From an assistant' });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  const folderId = result.structuredContent.folder_id as string;
  assert.equal((await callTool(client, 'list_folders', {})).isError, undefined);

  const listed = await auditEvents(harness, ws, `actor=${tokenId}`);
  assert.equal(listed.pagination.total, 1, JSON.stringify(listed));
  const [event] = listed.audit_events;
  assert.deepEqual(
    [event.actor, event.action, event.object, event.origin.transport, event.origin.address],
    [{ kind: 'assistant', id: tokenId, name: 'test key' }, 'create_folder', { kind: 'folder', id: folderId }, 'mcp', '127.0.0.1'],
  );
});

test('behind a trusted proxy the forwarded client is the address; otherwise X-Forwarded-For is ignored', async (t) => {
  const shared = await startTestApp(t);
  const proxied = await startTestApp(t, { trustedProxies: [parseCidr('10.0.0.0/8')] });
  const ws = await shared.workspace();
  const send = (harness: TestApp, name: string) =>
    harness.app.inject({
      method: 'POST',
      url: '/v1/folders',
      remoteAddress: '10.1.2.3',
      headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9, 198.51.100.7' },
      payload: JSON.stringify({ name }),
    });
  const direct = JSON.parse((await send(shared, 'Direct')).body);
  const forwarded = JSON.parse((await send(proxied, 'Forwarded')).body);
  const addressOf = async (folderId: string) => (await auditEvents(shared, ws, `object_id=${folderId}`)).audit_events[0].origin.address;
  assert.equal(await addressOf(direct.folder_id), '10.1.2.3');
  // Only the rightmost entry was written by the trusted proxy; what lies left of it the client wrote.
  assert.equal(await addressOf(forwarded.folder_id), '198.51.100.7');
});

test('a write that fails or rolls back leaves no event', async (t) => {
  const halfDone = defineOperation({
    name: 'create_half_folder',
    summary: 'Writes, then fails',
    description: 'Test-only write that inserts a folder and then fails, so its transaction rolls back.',
    method: 'POST',
    path: '/test/half-folders',
    group: 'Test',
    scope: 'videos:write',
    write: true,
    errors: ['conflict'],
    input: Type.Object({ name: Type.String() }, { additionalProperties: false }),
    output: Type.Object({ folder_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
    example: { name: 'Half' },
    async handler(ctx, input) {
      await ctx.db.insertInto('folders').values({ id: randomUUID(), workspace_id: ctx.workspaceId, name: input.name }).execute();
      throw new AppError('conflict', 'Changed my mind.');
    },
  });
  const harness = await startTestApp(t, { operations: [...catalog, halfDone] });
  const ws = await harness.workspace();
  const before = (await auditEvents(harness, ws)).pagination.total;

  const failed = await harness.request('POST', '/v1/test/half-folders', { token: ws.key, body: { name: 'Half' } });
  assert.equal(failed.status, 409, failed.raw);
  const folders = await harness.database.db.selectFrom('folders').select('id').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(folders, [], 'the change rolled back');
  // Refused before the handler (bad input) or by it (not found): nothing changed, nothing recorded.
  assert.equal((await harness.request('POST', '/v1/folders', { token: ws.key, body: { name: '' } })).status, 400);
  assert.equal((await harness.request('DELETE', `/v1/api-keys/${randomUUID()}`, { token: ws.key })).status, 404);

  assert.equal((await auditEvents(harness, ws)).pagination.total, before);
});

test('list_audit_events filters by actor, action, object and time, and pages newest first', async (t) => {
  let now = new Date('2031-03-02T09:00:00.000Z');
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const alice = await ws.mintKey();
  const bob = await ws.mintKey();
  const minute = (n: number) => new Date(Date.parse('2031-03-02T09:00:00.000Z') + n * 60_000);
  const write = async (token: string, method: string, url: string, body: unknown, at: number) => {
    now = minute(at);
    const res = await harness.request(method, url, { token, body });
    assert.ok(res.status < 300, res.raw);
    return res.body;
  };
  const first = await write(alice.key, 'POST', '/v1/folders', { name: 'One' }, 0);
  const second = await write(bob.key, 'POST', '/v1/folders', { name: 'Two' }, 1);
  await write(alice.key, 'PATCH', `/v1/folders/${first.folder_id}`, { name: 'One, renamed' }, 2);
  await write(bob.key, 'PATCH', `/v1/folders/${second.folder_id}`, { name: 'Two, renamed' }, 3);
  await write(alice.key, 'DELETE', `/v1/folders/${second.folder_id}`, undefined, 4);

  const window = `from=${minute(0).toISOString()}&to=${minute(5).toISOString()}`;
  const all = await auditEvents(harness, ws, window);
  assert.deepEqual(
    all.audit_events.map((e) => [e.action, e.actor.id, e.object.id, e.at]),
    [
      ['delete_folder', alice.id, second.folder_id, minute(4).toISOString()],
      ['update_folder', bob.id, second.folder_id, minute(3).toISOString()],
      ['update_folder', alice.id, first.folder_id, minute(2).toISOString()],
      ['create_folder', bob.id, second.folder_id, minute(1).toISOString()],
      ['create_folder', alice.id, first.folder_id, minute(0).toISOString()],
    ],
  );
  // Without a window, the workspace's creation (by the service, before these) is listed too, last.
  const everything = await auditEvents(harness, ws);
  assert.equal(everything.pagination.total, 7);
  assert.deepEqual(
    everything.audit_events.slice(5).map((e) => [e.action, e.actor.kind, e.object.kind]),
    [
      ['create_api_key', 'system', 'api_key'],
      ['create_workspace', 'system', 'workspace'],
    ],
  );

  const actions = async (query: string) => (await auditEvents(harness, ws, query)).audit_events.map((e) => `${e.action} ${e.object.id}`);
  assert.deepEqual(await actions(`actor=${bob.id}`), [`update_folder ${second.folder_id}`, `create_folder ${second.folder_id}`]);
  assert.deepEqual(await actions('action=update_folder'), [`update_folder ${second.folder_id}`, `update_folder ${first.folder_id}`]);
  assert.deepEqual(await actions(`object_id=${first.folder_id.toUpperCase()}`), [
    `update_folder ${first.folder_id}`,
    `create_folder ${first.folder_id}`,
  ]);
  assert.deepEqual(await actions(`from=${minute(1).toISOString()}&to=${minute(3).toISOString()}`), [
    `update_folder ${first.folder_id}`,
    `create_folder ${second.folder_id}`,
  ]);
  assert.deepEqual(await actions(`actor=${alice.id}&action=update_folder&object_id=${first.folder_id}`), [
    `update_folder ${first.folder_id}`,
  ]);
  assert.deepEqual(await actions(`actor=${randomUUID()}`), []);

  // Pages of two, newest first, exactly the whole list; the cursor is bound to its filters.
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await auditEvents(harness, ws, `${window}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.pagination.total, 5);
    assert.ok(page.audit_events.length <= 2);
    seen.push(...page.audit_events.map((e) => e.audit_event_id));
    cursor = page.pagination.next_cursor;
  } while (cursor);
  assert.deepEqual(
    seen,
    all.audit_events.map((e) => e.audit_event_id),
  );
  const firstPage = await auditEvents(harness, ws, `${window}&limit=2`);
  const elsewhere = await harness.request(
    'GET',
    `/v1/audit-events?action=create_folder&limit=2&cursor=${encodeURIComponent(firstPage.pagination.next_cursor ?? '')}`,
    { token: ws.key },
  );
  assert.equal(elsewhere.status, 400, elsewhere.raw);

  // Bad filters are named, every one at once.
  const bad = await harness.request(
    'GET',
    `/v1/audit-events?actor=nobody&action=Create%20Folder&object_id=42&from=${minute(5).toISOString()}&to=yesterday`,
    { token: ws.key },
  );
  assert.equal(bad.status, 400, bad.raw);
  assert.deepEqual(bad.body.error.details.errors.map((p: { field: string }) => p.field).sort(), ['action', 'actor', 'object_id', 'to']);
  const backwards = await harness.request('GET', `/v1/audit-events?from=${minute(5).toISOString()}&to=${minute(1).toISOString()}`, {
    token: ws.key,
  });
  assert.equal(backwards.status, 400, backwards.raw);
  assert.equal(backwards.body.error.details.errors[0].field, 'from');
  // Only workspace:manage may read the log.
  const reader = await ws.mintKey({ scopes: ['videos:read', 'videos:write'] });
  assert.equal((await harness.request('GET', '/v1/audit-events', { token: reader.key })).status, 403);
});

test('another workspace’s events are never listed, and its ids match nothing', async (t) => {
  const harness = await startTestApp(t);
  const ours = await harness.workspace();
  const theirs = await harness.workspace();
  const theirKey = await theirs.mintKey();
  const theirFolder = await harness.request('POST', '/v1/folders', { token: theirKey.key, body: { name: 'Theirs' } });
  assert.equal(theirFolder.status, 201);
  const ourFolder = await harness.request('POST', '/v1/folders', { token: ours.key, body: { name: 'Ours' } });
  assert.equal(ourFolder.status, 201);

  const listed = await auditEvents(harness, ours);
  const text = JSON.stringify(listed);
  for (const id of [theirs.id, theirKey.id, theirFolder.body.folder_id]) assert.ok(!text.includes(id), `${id} in ${text}`);
  assert.ok(text.includes(ourFolder.body.folder_id));
  assert.equal((await auditEvents(harness, ours, `object_id=${theirFolder.body.folder_id}`)).pagination.total, 0);
  assert.equal((await auditEvents(harness, ours, `actor=${theirKey.id}`)).pagination.total, 0);
  assert.equal((await auditEvents(harness, theirs, `object_id=${theirFolder.body.folder_id}`)).pagination.total, 1);
});

test('no event holds a lead’s personal data: API writes name the lead by id only', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const email = `private-${randomUUID()}@example.com`;
  const upserted = await harness.request('PUT', '/v1/leads', {
    token: ws.key,
    body: { email, first_name: 'Wilhelmina', last_name: 'Quarterfield', phone: '+44 20 7946 0123', notes: 'Met at the fair.' },
  });
  assert.equal(upserted.status, 201, upserted.raw);
  const leadId = upserted.body.lead_id as string;
  const updated = await harness.request('PATCH', `/v1/leads/${leadId}`, { token: ws.key, body: { notes: `Wrote to ${email}` } });
  assert.equal(updated.status, 200, updated.raw);

  const events = (await auditEvents(harness, ws, `object_id=${leadId}`)).audit_events;
  assert.deepEqual(
    events.map((e) => [e.action, e.object.kind]),
    [
      ['update_lead', 'lead'],
      ['upsert_lead', 'lead'],
    ],
  );
  for (const text of await auditRowsText(harness, ws.id)) {
    // The phone as sent and as digits: four digits alone turned up in a random id by chance.
    for (const personal of [email, 'Wilhelmina', 'Quarterfield', '7946 0123', '2079460123', 'fair'])
      assert.ok(!text.includes(personal), `${personal} in ${text}`);
  }
});

/** A Monday, 08:00 UTC: the default event type takes calls from 09:00 (test/helpers/app.ts addEventType). */
const MONDAY = new Date('2030-01-07T08:00:00.000Z');

test('the public pages record captures, bookings and cancellations as the service, with no address or browser and nothing personal', async (t) => {
  const harness = await startTestApp(t, { clock: () => MONDAY });
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Pricing', duration_seconds: 60 });
  const form = await harness.request('PATCH', `/v1/videos/${videoId}`, {
    token: ws.key,
    body: { lead_form: { placement: 'end', fields: ['first_name', 'phone'] } },
  });
  assert.equal(form.status, 200, form.raw);
  const sent = { 'user-agent': BROWSER, 'x-forwarded-for': '203.0.113.50' };

  const viewerEmail = `viewer-${randomUUID()}@example.com`;
  const captured = await harness.app.inject({
    method: 'POST',
    url: '/leads/capture',
    remoteAddress: '198.51.100.23',
    headers: { 'content-type': 'application/json', ...sent },
    payload: JSON.stringify({
      token: pageView(videoId, MONDAY).token,
      viewer_id: `viewer_${randomUUID().replaceAll('-', '')}`,
      email: viewerEmail,
      first_name: 'Ottoline',
      phone: '+1 202 555 0147',
    }),
  });
  assert.equal(captured.statusCode, 202, captured.body);

  const eventTypeId = await ws.addEventType();
  const inviteeEmail = `invitee-${randomUUID()}@example.com`;
  const booked = await harness.app.inject({
    method: 'POST',
    url: `/book/${eventTypeId}`,
    remoteAddress: '198.51.100.24',
    headers: { 'content-type': 'application/json', ...sent },
    payload: JSON.stringify({ start: '2030-01-07T10:00:00.000Z', name: 'Peregrine Took', email: inviteeEmail, timezone: 'UTC' }),
  });
  assert.equal(booked.statusCode, 201, booked.body);
  const booking = JSON.parse(booked.body);
  const token = new URL(booking.cancel_url).searchParams.get('token') ?? '';
  const canceled = await harness.app.inject({
    method: 'POST',
    url: `/bookings/${booking.booking_id}/cancel`,
    remoteAddress: '198.51.100.24',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...sent },
    payload: new URLSearchParams({ token, reason: `Ask ${inviteeEmail} again` }).toString(),
  });
  assert.equal(canceled.statusCode, 200, canceled.body);

  const leadOf = async (email: string) =>
    (
      await harness.database.db
        .selectFrom('leads')
        .select('id')
        .where('workspace_id', '=', ws.id)
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
  const viewerLead = await leadOf(viewerEmail);
  const inviteeLead = await leadOf(inviteeEmail);
  const publicEvents = (await auditEvents(harness, ws)).audit_events.filter((e) => e.origin?.transport === 'public');
  assert.deepEqual(
    publicEvents.map((e) => ({ ...e, audit_event_id: undefined })),
    [
      {
        audit_event_id: undefined,
        at: MONDAY.toISOString(),
        actor: { kind: 'system', id: null, name: 'Booking page' },
        action: 'cancel_booking',
        object: { kind: 'booking', id: booking.booking_id },
        origin: { transport: 'public', address: null, user_agent: null },
        details: { canceled_by: 'invitee' },
      },
      {
        audit_event_id: undefined,
        at: MONDAY.toISOString(),
        actor: { kind: 'system', id: null, name: 'Booking page' },
        action: 'create_booking',
        object: { kind: 'booking', id: booking.booking_id },
        origin: { transport: 'public', address: null, user_agent: null },
        details: { event_type_id: eventTypeId, lead_id: inviteeLead, outcome_id: publicEvents[1]?.details.outcome_id },
      },
      {
        audit_event_id: undefined,
        at: MONDAY.toISOString(),
        actor: { kind: 'system', id: null, name: 'Lead form' },
        action: 'capture_lead',
        object: { kind: 'lead', id: viewerLead },
        origin: { transport: 'public', address: null, user_agent: null },
        details: { video_id: videoId, created: true },
      },
    ],
  );
  assert.match(publicEvents[1]?.details.outcome_id, /^[0-9a-f-]{36}$/);
  const personal = [viewerEmail, inviteeEmail, 'Ottoline', 'Peregrine', '202 555 0147', '2025550147', '198.51.100', '203.0.113', 'Mozilla'];
  for (const text of await auditRowsText(harness, ws.id)) {
    for (const value of personal) assert.ok(!text.includes(value), `${value} in ${text}`);
  }
});

test('a payment recorded from Stripe is the service’s event, from Stripe; a retried delivery adds none', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const secret = 'whsec_audittests0123456789abcdefABCDEF';
  assert.equal((await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { stripe_webhook_secret: secret } })).status, 200);
  const buyer = `buyer-${randomUUID()}@example.com`;
  const payload = JSON.stringify({
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: Math.floor(Date.now() / 1000),
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_test_${randomUUID().slice(0, 8)}`,
        object: 'checkout.session',
        amount_total: 4900,
        currency: 'usd',
        customer_details: { email: buyer, name: 'Bartholomew Buyer' },
        payment_intent: `pi_${randomUUID().slice(0, 8)}`,
        payment_status: 'paid',
      },
    },
  });
  const deliver = async () => {
    const signature = new Stripe('sk_test_cuepoint_tests_only').webhooks.generateTestHeaderString({ payload, secret });
    const res = await harness.app.inject({
      method: 'POST',
      url: `/stripe/webhooks/${ws.id}`,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    return JSON.parse(res.body);
  };
  const first = await deliver();
  await deliver();

  const events = (await auditEvents(harness, ws, 'action=record_outcome')).audit_events;
  assert.equal(events.length, 1, JSON.stringify(events));
  const [event] = events;
  assert.deepEqual(
    [event.actor, event.object, event.origin, event.details.kind, event.details.status],
    [
      { kind: 'system', id: null, name: 'Stripe' },
      { kind: 'outcome', id: first.outcome_id },
      { transport: 'stripe', address: null, user_agent: null },
      'purchase',
      'succeeded',
    ],
  );
  assert.match(event.details.lead_id, /^[0-9a-f-]{36}$/);
  for (const text of await auditRowsText(harness, ws.id)) {
    for (const value of [buyer, 'Bartholomew', secret]) assert.ok(!text.includes(value), `${value} in ${text}`);
  }
});

test('a workspace made on the command line is recorded with its admin key, by the command line', async (t) => {
  const harness = await startTestApp(t);
  const now = new Date();
  const { workspace } = await createWorkspace(harness.database.db, {
    name: `CLI ${randomUUID().slice(0, 8)}`,
    plan: 'free',
    now,
    by: { actor: { kind: 'cli', id: null, name: 'cuepoint workspace create' }, origin: { transport: 'cli' } },
  });
  const rows = await harness.database.db
    .selectFrom('audit_events')
    .selectAll()
    .where('workspace_id', '=', workspace.id)
    .orderBy('sequence')
    .execute();
  const key = await harness.database.db
    .selectFrom('credentials')
    .select('id')
    .where('workspace_id', '=', workspace.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    rows.map((row) => [row.action, row.actor_kind, row.actor_name, row.object_kind, row.object_id, row.origin_transport, row.details]),
    [
      ['create_workspace', 'cli', 'cuepoint workspace create', 'workspace', workspace.id, 'cli', { plan: 'free' }],
      [
        'create_api_key',
        'cli',
        'cuepoint workspace create',
        'api_key',
        key.id,
        'cli',
        { kind: 'api_key', tier: 'admin', scopes: TIER_SCOPES.admin.join(' ') },
      ],
    ],
  );
  assert.ok(rows.every((row) => row.at.getTime() === now.getTime()));
});
