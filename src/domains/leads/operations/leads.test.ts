/**
 * Leads: upsert (creation 201 vs enrichment 200, merging tags, custom fields and notes), update_lead
 * (status history, tags replaced, notes credited, email conflicts naming nobody), list_leads (every
 * filter and sort, cursors bound to filters, masking and pii_redacted, email search while masked),
 * get_lead (history newest first and bounded), get_lead_journey (sessions of a browser before and
 * after it was linked, CTA labels, route choices, outcomes, the summary), engagement from viewing,
 * events, and both transports for the key paths.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../test/helpers/mcp-client.ts';
import { addRouteChoice, addRouteVisits } from '../../../../test/helpers/route-visit-rows.ts';
import { collect, type Event, pageView, viewer } from '../../../../test/helpers/viewing.ts';
import { linkViewerToLead, recordLeadActivity } from '../lead-records.queries.ts';

const DAY = 86_400_000;

/** An app whose clock the test moves, so captures and sessions happen at the times it says. */
async function clockedApp(t: import('node:test').TestContext) {
  let now = new Date('2026-06-01T12:00:00.000Z');
  const harness = await startTestApp(t, { clock: () => now });
  return {
    harness,
    at: (date: Date) => {
      now = date;
    },
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
      return now;
    },
    now: () => now,
  };
}

async function unmasked(harness: TestApp, ws: TestWorkspace) {
  const res = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } });
  assert.equal(res.status, 200, res.raw);
}

/** Plays one session of `viewerId` at the app's current time: each inner list is one batch. */
async function watchAt(harness: TestApp, now: Date, videoId: string, viewerId: string, batches: Event[][]) {
  const view = pageView(videoId, now);
  for (const [i, events] of batches.entries()) {
    const res = await collect(harness, { token: view.token, viewer_id: viewerId, sequence: i + 1, events });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
}

const eventsOf = async (harness: TestApp, workspaceId: string) =>
  (
    await harness.database.db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('workspace_id', '=', workspaceId)
      .where('type', 'like', 'lead.%')
      .orderBy('sequence')
      .execute()
  ).map((e) => ({ type: e.type, ...(e.data as { lead_id: string; changed?: string[] }) }));

test('upsert_lead creates (201) then enriches (200): fields overwrite, tags add, custom fields merge, notes append', async (t) => {
  const { harness, advance } = await clockedApp(t);
  const { request } = harness;
  const ws = await harness.workspace();
  await unmasked(harness, ws);
  const created = await request('PUT', '/v1/leads', {
    token: ws.key,
    body: {
      email: 'Jane.Doe@Example.com',
      first_name: 'Jane',
      tags: ['webinar'],
      custom_fields: { company: 'Acme', seats: 5, trial: true },
      notes: 'Met at the webinar.',
    },
  });
  assert.equal(created.status, 201, created.raw);
  assert.equal(created.body.created, true);
  assert.equal(created.body.email, 'Jane.Doe@Example.com');
  assert.deepEqual([created.body.status, created.body.source, created.body.name], ['new', 'api', 'Jane']);
  const leadId = created.body.lead_id;

  advance(1000);
  // The same address, pasted with spaces around it and another case: the same lead.
  const again = await request('PUT', '/v1/leads', {
    token: ws.key,
    body: {
      email: '  jane.doe@example.COM ',
      last_name: 'Doe',
      phone: '+1 415 555 0100',
      tags: ['WEBINAR', 'pricing'],
      custom_fields: { seats: 12, trial: null, plan: 'pro' },
      notes: 'Asked about pricing.',
      source: 'import',
    },
  });
  assert.equal(again.status, 200, again.raw);
  assert.equal(again.body.created, false);
  assert.equal(again.body.lead_id, leadId);
  assert.equal(again.body.source, 'api', 'an existing lead keeps its source');
  assert.equal(again.body.name, 'Jane Doe');
  assert.deepEqual(again.body.tags, ['webinar', 'pricing'], 'tags added once, whatever their case');
  assert.deepEqual(again.body.custom_fields, { company: 'Acme', seats: 12, plan: 'pro' });

  const same = await request('PUT', '/v1/leads', {
    token: ws.key,
    body: { email: 'jane.doe@example.COM', tags: ['pricing'], notes: 'Asked about pricing.' },
  });
  assert.equal(same.status, 200, 'the same upsert again (a retry) changes nothing, its note included');
  const events = await eventsOf(harness, ws.id);
  assert.deepEqual(
    events.map((e) => [e.type, e.changed?.sort()]),
    [
      ['lead.created', undefined],
      ['lead.updated', ['custom_fields', 'email', 'last_name', 'notes', 'phone', 'tags']],
    ],
    'a second upsert changing nothing emits nothing',
  );

  const detail = await request('GET', `/v1/leads/${leadId}`, { token: ws.key });
  assert.equal(detail.status, 200, detail.raw);
  assert.deepEqual(
    detail.body.history.filter((e: { kind: string }) => e.kind === 'note').map((e: { note: { body: string } }) => e.note.body),
    ['Asked about pricing.', 'Met at the webinar.'],
    'notes appended, newest first',
  );
});

test('upsert_lead: concurrent calls for one email make one lead', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const answers = await Promise.all(
    ['race@example.com', 'RACE@example.com', 'Race@Example.com'].map((email, i) =>
      harness.request('PUT', '/v1/leads', { token: ws.key, body: { email, tags: [`t${i}`] } }),
    ),
  );
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 201], answers.map((a) => a.raw).join('\n'));
  assert.equal(new Set(answers.map((a) => a.body.lead_id)).size, 1);
  const list = await harness.request('GET', '/v1/leads', { token: ws.key });
  assert.equal(list.body.pagination.total, 1);
  assert.deepEqual([...list.body.leads[0].tags].sort(), ['t0', 't1', 't2']);
});

test('upsert_lead names every bad field, and both transports agree', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const bad = await harness.request('PUT', '/v1/leads', {
    token: ws.key,
    body: {
      email: 'not-an-email',
      phone: 'call me',
      status: 'hot',
      custom_fields: { ['k'.repeat(41)]: 1, long: 'x'.repeat(501), nested: { a: 1 } },
      notes: '   ',
      color: 'blue',
    },
  });
  assert.equal(bad.status, 400, bad.raw);
  const fields = new Set(bad.body.error.details.errors.map((e: { field: string }) => /^[a-z_]+/.exec(e.field)?.[0]));
  for (const field of ['email', 'phone', 'status', 'custom_fields', 'notes', 'color']) assert.ok(fields.has(field), `${field}: ${bad.raw}`);
  const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`key${i}`, i]));
  const many = await harness.request('PUT', '/v1/leads', { token: ws.key, body: { email: 'a@example.com', custom_fields: tooMany } });
  assert.equal(many.status, 400, many.raw);
  assert.equal(
    (await harness.request('PUT', '/v1/leads', { token: ws.key, body: { first_name: 'No email' } })).status,
    400,
    'email is required',
  );

  // Over MCP: the same operation, the same merge; `created` tells what the status tells over REST.
  const client = await connectMcp(t, harness.app, ws.key);
  const first = await callTool(client, 'upsert_lead', { email: 'mcp@example.com', tags: ['a'] });
  assert.notEqual(first.isError, true, JSON.stringify(first.content));
  assert.equal(first.structuredContent.created, true);
  assert.equal(first.structuredContent.email, 'm***@e***.com', 'masked by default');
  const second = await callTool(client, 'upsert_lead', { email: 'MCP@example.com', tags: ['b'] });
  assert.deepEqual([second.structuredContent.created, second.structuredContent.tags], [false, ['a', 'b']]);
  const rest = await harness.request('PUT', '/v1/leads', { token: ws.key, body: { email: 'mcp@example.com', tags: ['c'] } });
  assert.deepEqual([rest.status, rest.body.lead_id], [200, first.structuredContent.lead_id]);

  // An idempotent replay answers the status it first answered.
  const key = { 'idempotency-key': 'upsert-once' };
  const once = await harness.request('PUT', '/v1/leads', { token: ws.key, body: { email: 'once@example.com' }, headers: key });
  const replay = await harness.request('PUT', '/v1/leads', { token: ws.key, body: { email: 'once@example.com' }, headers: key });
  assert.deepEqual([once.status, replay.status, replay.headers['idempotency-replayed']], [201, 201, 'true']);
});

test('update_lead: status changes recorded, tags replaced, notes credited, email unique without naming anyone', async (t) => {
  const { harness, advance } = await clockedApp(t);
  const ws = await harness.workspace();
  await unmasked(harness, ws);
  const writer = await ws.mintKey({ scopes: ['leads:read', 'leads:write'] });
  const lead = await ws.addLead({ email: 'sam@example.com', tags: ['old'], name: 'Sam' });
  const other = await ws.addLead({ email: 'taken@example.com' });

  const res = await harness.request('PATCH', `/v1/leads/${lead}`, {
    token: writer.key,
    body: { status: 'qualified', tags: ['new', 'NEW', 'hot'], notes: 'Wants a demo.', phone: '+44 20 7946 0000' },
  });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual([res.body.status, res.body.tags, res.body.phone], ['qualified', ['new', 'hot'], '+44 20 7946 0000']);
  advance(1000);
  const second = await harness.request('PATCH', `/v1/leads/${lead}`, { token: writer.key, body: { notes: 'Demo booked.', name: null } });
  assert.equal(second.body.name, null);

  const detail = await harness.request('GET', `/v1/leads/${lead}`, { token: writer.key });
  assert.deepEqual(
    detail.body.history.map((e: { kind: string }) => e.kind),
    ['note', 'note', 'status_changed'],
    'newest first; at one instant the status change before the note',
  );
  const statusChange = detail.body.history.find((e: { kind: string }) => e.kind === 'status_changed');
  assert.deepEqual(statusChange.status_change, { from: 'new', to: 'qualified', author: 'test key' });
  assert.deepEqual(
    detail.body.history.filter((e: { kind: string }) => e.kind === 'note').map((e: { note: object }) => e.note),
    [
      { body: 'Demo booked.', author: 'test key' },
      { body: 'Wants a demo.', author: 'test key' },
    ],
  );

  // Another lead's address in another case, with spaces around it, is still that lead's.
  const conflict = await harness.request('PATCH', `/v1/leads/${lead}`, { token: writer.key, body: { email: ' TAKEN@example.com ' } });
  assert.equal(conflict.status, 409, conflict.raw);
  assert.equal(conflict.body.error.code, 'conflict');
  assert.ok(!conflict.raw.toLowerCase().includes('taken@') && !conflict.raw.includes(other), 'names nothing personal');
  const moved = await harness.request('PATCH', `/v1/leads/${lead}`, { token: writer.key, body: { email: 'Sam.New@example.com' } });
  assert.equal(moved.body.email, 'Sam.New@example.com');
  const nothing = await harness.request('PATCH', `/v1/leads/${lead}`, { token: writer.key, body: { status: 'qualified' } });
  assert.equal(nothing.status, 200);

  const changes = (await eventsOf(harness, ws.id)).filter((e) => e.type === 'lead.updated').map((e) => e.changed?.sort());
  assert.deepEqual(changes, [['notes', 'phone', 'status', 'tags'], ['name', 'notes'], ['email']]);

  const missing = await harness.request('PATCH', '/v1/leads/00000000-0000-4000-8000-000000000000', {
    token: writer.key,
    body: { notes: 'x' },
  });
  assert.equal(missing.status, 404);
  const reader = await ws.mintKey({ scopes: ['leads:read'] });
  assert.equal((await harness.request('PATCH', `/v1/leads/${lead}`, { token: reader.key, body: { notes: 'x' } })).status, 403);
});

test('list_leads: filters, sorts, cursors bound to filters, masking and email search while masked', async (t) => {
  const { harness, at, advance } = await clockedApp(t);
  const ws = await harness.workspace();
  const put = async (body: Record<string, unknown>) => {
    const res = await harness.request('PUT', '/v1/leads', { token: ws.key, body });
    assert.ok([200, 201].includes(res.status), res.raw);
    return res.body.lead_id as string;
  };
  at(new Date('2026-05-01T10:00:00.000Z'));
  const ada = await put({ email: 'ada@lovelace.org', name: 'Ada Lovelace', status: 'customer', notes: 'Loves the analytical engine.' });
  advance(DAY);
  const bob = await put({ email: 'bob@builder.io', first_name: 'Bob', last_name: 'Builder', source: 'import' });
  advance(DAY);
  const cy = await put({ email: 'cy@example.com', status: 'lost' });
  advance(DAY);

  const list = async (query: string, token = ws.key) => {
    const res = await harness.request('GET', `/v1/leads${query}`, { token });
    assert.equal(res.status, 200, res.raw);
    return res.body;
  };
  const ids = (body: { leads: { lead_id: string }[] }) => body.leads.map((l) => l.lead_id);

  const masked = await list('?sort=newest');
  assert.equal(masked.pii_redacted, true);
  assert.deepEqual(ids(masked), [cy, bob, ada]);
  assert.equal(masked.leads[2].email, 'a***@l***.org');
  assert.equal(masked.leads[2].name, 'A***');
  assert.deepEqual(ids(await list('?search=ADA@lovelace.org')), [ada], 'email search finds a masked lead');
  assert.deepEqual(ids(await list('?search=ada@lovelace')), [], 'while masked, no fragments of an address');
  assert.deepEqual(ids(await list('?search=lovelace')), [], 'nor of a name');
  assert.deepEqual(ids(await list('?search=ANALYTICAL')), [ada], 'notes are searched in part');
  assert.deepEqual(ids(await list('?search=bob%20builder')), [bob], 'first and last name together');
  assert.deepEqual(ids(await list('?search=Builder')), [bob], 'or a last name');
  assert.deepEqual(ids(await list('?sort=oldest')), [ada, bob, cy]);
  assert.deepEqual(ids(await list('?status=lost')), [cy]);
  assert.deepEqual(ids(await list('?source=import')), [bob]);
  assert.deepEqual(ids(await list('?from_date=2026-05-02&to_date=2026-05-02')), [bob]);
  assert.deepEqual(ids(await list('?from_date=2026-05-02&sort=oldest')), [bob, cy]);
  assert.deepEqual(ids(await list('?to_date=2026-05-01')), [ada]);
  assert.deepEqual(ids(await list('?to_date=9999-12-31&sort=oldest')), [ada, bob, cy], 'the last day a date can name');
  const backwards = await harness.request('GET', '/v1/leads?from_date=2026-05-03&to_date=2026-05-01', { token: ws.key });
  assert.equal(backwards.status, 400);

  // Pages walk the whole list once, and a cursor only works with the filters it was made for.
  const first = await list('?sort=oldest&limit=2');
  assert.deepEqual([ids(first), first.pagination.total, first.pagination.has_more], [[ada, bob], 3, true]);
  const cursor = encodeURIComponent(first.pagination.next_cursor);
  const second = await list(`?sort=oldest&limit=2&cursor=${cursor}`);
  assert.deepEqual([ids(second), second.pagination.next_cursor], [[cy], null]);
  const otherFilters = await harness.request('GET', `/v1/leads?sort=newest&limit=2&cursor=${cursor}`, { token: ws.key });
  assert.equal(otherFilters.status, 400, otherFilters.raw);

  await unmasked(harness, ws);
  assert.deepEqual(ids(await list('?search=@builder')), [bob], 'unmasked, fragments match');
  const plain = await list('?search=lovelace');
  assert.deepEqual([plain.pii_redacted, plain.leads[0].email, plain.leads[0].name], [false, 'ada@lovelace.org', 'Ada Lovelace']);
  const other = await harness.workspace();
  assert.equal((await list('', other.key)).pagination.total, 0);
});

test('list_leads by video and by engagement: a linked browser’s viewing raises the score and orders the list', async (t) => {
  const { harness, advance, now } = await clockedApp(t);
  const ws = await harness.workspace();
  const demo = await ws.addVideo({ title: 'Demo', duration_seconds: 120 });
  const pricing = await ws.addVideo({ title: 'Pricing', duration_seconds: 60 });
  const watcher = await ws.addLead({ email: 'watcher@example.com' });
  const idle = await ws.addLead({ email: 'idle@example.com' });
  const captured = await ws.addLead({ email: 'captured@example.com', source: 'video' });
  await harness.database.db.updateTable('leads').set({ source_video_id: pricing }).where('id', '=', captured).execute();
  const browser = viewer('engaged');
  await linkViewerToLead(harness.database.db, { workspaceId: ws.id, viewerId: browser, leadId: watcher, at: now() });

  await watchAt(harness, advance(1000), demo, browser, [
    [{ type: 'progress', ranges: [[0, 20]] }],
    [{ type: 'progress', ranges: [[20, 30]] }],
  ]);
  const lead = await harness.request('GET', `/v1/leads/${watcher}`, { token: ws.key });
  // 2 for the session, half a minute (0.5), a quarter of the video (2): 4.5 fresh points.
  assert.equal(lead.body.engagement_score, Math.round(100 * (1 - Math.exp(-4.5 / 40))));
  assert.equal(lead.body.status, 'new', 'below the engaged threshold');

  const byEngagement = await harness.request('GET', '/v1/leads', { token: ws.key });
  assert.equal(byEngagement.body.leads[0].lead_id, watcher);
  assert.deepEqual(byEngagement.body.leads.map((l: { lead_id: string }) => l.lead_id).sort(), [watcher, idle, captured].sort());
  const onDemo = await harness.request('GET', `/v1/leads?video_id=${demo}`, { token: ws.key });
  assert.deepEqual(
    onDemo.body.leads.map((l: { lead_id: string }) => l.lead_id),
    [watcher],
  );
  const onPricing = await harness.request('GET', `/v1/leads?video_id=${pricing}`, { token: ws.key });
  assert.deepEqual(
    onPricing.body.leads.map((l: { lead_id: string }) => l.lead_id),
    [captured],
    'captured on it counts as well',
  );

  // Most engaged first, a page at a time: ties (no engagement yet) broken by id, nobody twice or left out.
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=1&cursor=${encodeURIComponent(cursor)}` : '?limit=1';
    const page = await harness.request('GET', `/v1/leads${query}`, { token: ws.key });
    assert.equal(page.status, 200, page.raw);
    seen.push(...page.body.leads.map((l: { lead_id: string }) => l.lead_id));
    cursor = page.body.pagination.next_cursor;
  } while (cursor);
  assert.deepEqual(seen, [watcher, ...[idle, captured].sort().reverse()]);

  // Another session crosses the threshold: the lead becomes engaged on its own, with a history entry and an event.
  await watchAt(harness, advance(60_000), pricing, browser, [[{ type: 'progress', ranges: [[0, 60]] }]]);
  const engaged = await harness.request('GET', `/v1/leads/${watcher}`, { token: ws.key });
  assert.equal(engaged.body.status, 'engaged', JSON.stringify(engaged.body.engagement_score));
  assert.ok(engaged.body.engagement_score >= 30 && engaged.body.engagement_score > lead.body.engagement_score);
  const change = engaged.body.history.find((e: { kind: string }) => e.kind === 'status_changed');
  assert.deepEqual(change.status_change, { from: 'new', to: 'engaged', author: 'Cuepoint (automatic)' });
  const events = await eventsOf(harness, ws.id);
  assert.deepEqual(
    events.filter((e) => e.type === 'lead.updated').map((e) => [e.lead_id, e.changed]),
    [[watcher, ['status']]],
  );
});

test('linking a browser credits its past views once, decayed from when they happened', async (t) => {
  const { harness, advance, now } = await clockedApp(t);
  const ws = await harness.workspace();
  const video = await ws.addVideo({ title: 'Tour', duration_seconds: 60 });
  const browser = viewer('before');
  await watchAt(harness, advance(0), video, browser, [[{ type: 'progress', ranges: [[0, 60]] }]]);
  const lead = await ws.addLead({ email: 'later@example.com' });
  const scoreOf = async () => (await harness.request('GET', `/v1/leads/${lead}`, { token: ws.key })).body.engagement_score;
  assert.equal(await scoreOf(), 0);
  advance(30 * DAY);
  await linkViewerToLead(harness.database.db, { workspaceId: ws.id, viewerId: browser, leadId: lead, at: now() });
  // The view earned 2 + 1 + 8 = 11 points a half-life ago: 5.5 now.
  assert.equal(await scoreOf(), Math.round(100 * (1 - Math.exp(-5.5 / 40))));
  await linkViewerToLead(harness.database.db, { workspaceId: ws.id, viewerId: browser, leadId: lead, at: now() });
  assert.equal(await scoreOf(), Math.round(100 * (1 - Math.exp(-5.5 / 40))), 'an existing link credits nothing again');
});

test('get_lead_journey: sessions before and after the link, CTA labels, outcomes and the summary, on both transports', async (t) => {
  const { harness, advance, now } = await clockedApp(t);
  const ws = await harness.workspace();
  await unmasked(harness, ws);
  const intro = await ws.addVideo({ title: 'Intro', duration_seconds: 100 });
  const offer = await ws.addVideo({ title: 'Offer', duration_seconds: 50 });
  const browser = viewer('journey');
  const start = advance(0);
  // Watched before anyone knew who it was.
  await watchAt(harness, start, intro, browser, [[{ type: 'progress', ranges: [[0, 50]] }]]);
  advance(DAY);
  const captured = await harness.request('PUT', '/v1/leads', { token: ws.key, body: { email: 'journey@example.com', name: 'Jo' } });
  const leadId = captured.body.lead_id;
  await linkViewerToLead(harness.database.db, { workspaceId: ws.id, viewerId: browser, leadId, at: now() });
  await watchAt(harness, advance(3600_000), offer, browser, [
    [{ type: 'progress', ranges: [[0, 25]] }],
    [
      { type: 'progress', ranges: [[25, 50]] },
      { type: 'cta_click', position: 48, label: 'Buy now' },
    ],
  ]);
  const paidAt = advance(3600_000);
  await ws.addOutcome({ lead_id: leadId, amount: 9900, currency: 'EUR', video_id: offer, occurred_at: paidAt, created_at: paidAt });
  // Another browser, never linked, watching the same video: not in the story.
  await watchAt(harness, advance(1000), offer, viewer('stranger'), [[{ type: 'progress', ranges: [[0, 50]] }]]);

  const res = await harness.request('GET', `/v1/leads/${leadId}/journey`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  const journey = res.body;
  assert.deepEqual(
    journey.entries.map((e: { kind: string; video: { title: string } | null }) => [e.kind, e.video?.title ?? null]),
    [
      ['view', 'Intro'],
      ['view', 'Offer'],
      ['cta_click', 'Offer'],
      ['status_changed', null],
      ['outcome', 'Offer'],
    ],
  );
  const [before, after, click, engaged, outcome] = journey.entries;
  assert.deepEqual(engaged.status_change, { from: 'new', to: 'engaged', author: 'Cuepoint (automatic)' }, 'the click made it engaged');
  assert.deepEqual(before.view, {
    watched_seconds: 50,
    watched_share: 0.5,
    slices_reached: 50,
    furthest_seconds: 50,
    completed: false,
    cta_clicks: 0,
  });
  assert.deepEqual([after.view.watched_share, after.view.completed, after.view.cta_clicks], [1, true, 1]);
  assert.deepEqual(click.cta, { label: 'Buy now', position_seconds: 48 });
  assert.deepEqual(outcome.outcome, {
    outcome_id: outcome.outcome.outcome_id,
    kind: 'purchase',
    status: 'succeeded',
    value: 9900,
    currency: 'EUR',
  });
  assert.deepEqual([journey.total, journey.earlier_omitted, journey.email, journey.name], [5, 0, 'journey@example.com', 'Jo']);
  assert.deepEqual(journey.summary, {
    first_touch: { at: start.toISOString(), video: { video_id: intro, title: 'Intro' } },
    last_touch: { at: journey.entries[1].at, video: { video_id: offer, title: 'Offer' } },
    conversion: { kind: 'purchase', at: paidAt.toISOString() },
    time_to_conversion_seconds: Math.floor((paidAt.getTime() - start.getTime()) / 1000),
    sessions: 2,
    videos_watched: 2,
    watched_seconds: 100,
  });

  // get_lead: the same entries newest first.
  const detail = await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key });
  assert.deepEqual(
    detail.body.history.map((e: { kind: string }) => e.kind),
    ['outcome', 'status_changed', 'cta_click', 'view', 'view'],
  );
  assert.deepEqual([detail.body.history_total, detail.body.history_omitted], [5, 0]);

  // Over MCP, masked once the workspace masks again; the facts are the same.
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: true } });
  const client = await connectMcp(t, harness.app, ws.key);
  const viaMcp = await callTool(client, 'get_lead_journey', { lead_id: leadId });
  assert.notEqual(viaMcp.isError, true, JSON.stringify(viaMcp.content));
  assert.deepEqual([viaMcp.structuredContent.email, viaMcp.structuredContent.name], ['j***@e***.com', 'J***']);
  assert.deepEqual(viaMcp.structuredContent.entries, journey.entries);
  assert.deepEqual(viaMcp.structuredContent.summary, journey.summary);

  const other = await harness.workspace();
  assert.equal((await harness.request('GET', `/v1/leads/${leadId}/journey`, { token: other.key })).status, 404);

  // Later kinds (a booking) show their facts, but never a fact named like a personal field.
  await recordLeadActivity(harness.database.db, {
    workspaceId: ws.id,
    leadId,
    kind: 'booking',
    videoId: offer,
    data: { start: '2026-06-10T15:00:00.000Z', event_type: 'Demo call', invitee_email: 'journey@example.com', invitee_name: 'Jo' },
    at: advance(1000),
  });
  const booked = await harness.request('GET', `/v1/leads/${leadId}`, { token: ws.key });
  assert.deepEqual(booked.body.history[0], {
    kind: 'booking',
    at: now().toISOString(),
    video: { video_id: offer, title: 'Offer' },
    details: { start: '2026-06-10T15:00:00.000Z', event_type: 'Demo call' },
  });
});

test('get_lead_journey: the choices the lead’s browsers made in routes, before and after the link, counted like the rest', async (t) => {
  const { harness, advance, now } = await clockedApp(t);
  const ws = await harness.workspace();
  const intro = await ws.addVideo({ title: 'Intro', duration_seconds: 100 });
  const pricing = await ws.addVideo({ title: 'Pricing', duration_seconds: 60 });
  const route = await ws.addRoute({ name: 'Which plan fits you?', status: 'live', videoIds: [intro, pricing] });
  const [entry, second] = route.stepIds as [string, string];
  const db = harness.database.db;
  const wire = { workspaceId: ws.id, routeId: route.id };
  const toPricing = await addRouteChoice(db, { ...wire, stepId: entry, label: 'Show me pricing', target: 'step', toStepId: second });
  // A choice re-wired away since it was made: the journey keeps the words the viewer saw.
  const docs = await addRouteChoice(db, {
    ...wire,
    stepId: entry,
    position: 1,
    label: 'Docs',
    target: 'url',
    url: 'https://docs.example.com',
    retiredAt: now(),
  });
  const done = await addRouteChoice(db, { ...wire, stepId: second, label: 'I’m done', target: 'end' });
  const browser = viewer('router');

  const start = advance(0);
  await watchAt(harness, start, intro, browser, [[{ type: 'progress', ranges: [[0, 100]] }]]);
  const [choseStep, choseEnd] = [advance(60_000), advance(60_000)];
  advance(DAY);
  const lead = await ws.addLead({ email: 'router@example.com' });
  await linkViewerToLead(db, { workspaceId: ws.id, viewerId: browser, leadId: lead, at: now() });
  const choseUrl = advance(3600_000);
  const other = await harness.workspace();
  const theirs = await other.addRoute({ status: 'live' });
  const theirChoice = await addRouteChoice(db, {
    workspaceId: other.id,
    routeId: theirs.id,
    stepId: theirs.stepIds[0] as string,
    label: 'Theirs',
    target: 'end',
  });
  await addRouteVisits(db, [
    // Before the link: entry step → pricing → the end.
    {
      ...wire,
      viewerId: browser,
      startedAt: start,
      endedBy: 'end',
      steps: [
        { stepId: entry, choice: { id: toPricing, label: 'Show me pricing', at: choseStep } },
        { stepId: second, at: choseStep, choice: { id: done, label: 'I’m done', at: choseEnd } },
      ],
    },
    // After it: the link out.
    {
      ...wire,
      viewerId: browser,
      startedAt: now(),
      endedBy: 'url',
      steps: [{ stepId: entry, choice: { id: docs, label: 'Docs', at: choseUrl } }],
    },
    // Reached the entry step and chose nothing: no entry.
    { ...wire, viewerId: browser, startedAt: now(), steps: [{ stepId: entry }] },
    // Another browser, never linked; and this browser's id in another workspace.
    {
      ...wire,
      viewerId: viewer('stranger'),
      startedAt: now(),
      endedBy: 'url',
      steps: [{ stepId: entry, choice: { id: docs, label: 'Docs', at: now() } }],
    },
    {
      workspaceId: other.id,
      routeId: theirs.id,
      viewerId: browser,
      startedAt: now(),
      endedBy: 'end',
      steps: [{ stepId: theirs.stepIds[0] as string, choice: { id: theirChoice, label: 'Theirs', at: now() } }],
    },
  ]);
  // An activity row a writer might also keep for a choice is not shown twice.
  await recordLeadActivity(db, {
    workspaceId: ws.id,
    leadId: lead,
    kind: 'route_choice',
    videoId: intro,
    data: { route: 'again' },
    at: choseUrl,
  });

  const res = await harness.request('GET', `/v1/leads/${lead}/journey`, { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  const choice = (at: Date, video: [string, string], label: string, target: string) => ({
    kind: 'route_choice',
    at: at.toISOString(),
    video: { video_id: video[0], title: video[1] },
    details: { route_id: route.id, route: 'Which plan fits you?', choice: label, target },
  });
  const [watched, ...choices] = res.body.entries;
  assert.equal(watched.kind, 'view');
  assert.deepEqual(choices, [
    choice(choseStep, [intro, 'Intro'], 'Show me pricing', 'step'),
    choice(choseEnd, [pricing, 'Pricing'], 'I’m done', 'end'),
    choice(choseUrl, [intro, 'Intro'], 'Docs', 'url'),
  ]);
  assert.deepEqual([res.body.total, res.body.earlier_omitted], [4, 0]);

  const detail = await harness.request('GET', `/v1/leads/${lead}`, { token: ws.key });
  assert.deepEqual(
    detail.body.history.map((e: { kind: string }) => e.kind),
    ['route_choice', 'route_choice', 'route_choice', 'view'],
  );
  assert.deepEqual(detail.body.history[0], choices[2]);
  assert.equal(detail.body.history_total, 4);
  const client = await connectMcp(t, harness.app, ws.key);
  assert.deepEqual((await callTool(client, 'get_lead_journey', { lead_id: lead })).structuredContent.entries, res.body.entries);
});

test('get_lead bounds its history at 50 entries and counts the rest; the journey at 500', async (t) => {
  const { harness, advance } = await clockedApp(t);
  const ws = await harness.workspace();
  const lead = await ws.addLead({ email: 'talkative@example.com' });
  for (let i = 1; i <= 53; i++) {
    advance(1000);
    const res = await harness.request('PATCH', `/v1/leads/${lead}`, { token: ws.key, body: { notes: `Note ${i}` } });
    assert.equal(res.status, 200, res.raw);
  }
  const detail = await harness.request('GET', `/v1/leads/${lead}`, { token: ws.key });
  assert.equal(detail.body.history.length, 50);
  assert.deepEqual([detail.body.history_total, detail.body.history_omitted], [53, 3]);
  const journey = await harness.request('GET', `/v1/leads/${lead}/journey`, { token: ws.key });
  assert.deepEqual([journey.body.entries.length, journey.body.total, journey.body.earlier_omitted], [53, 53, 0]);
  assert.equal(journey.body.summary.first_touch, null);
  assert.equal(journey.body.summary.time_to_conversion_seconds, null, 'no view before the capture');
  assert.equal(journey.body.summary.conversion.kind, 'capture');

  // A journey shows the latest 500 entries, oldest first, and counts the earlier ones.
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  await harness.database.db
    .insertInto('lead_activities')
    .values(
      Array.from({ length: 450 }, (_, i) => ({
        id: randomUUID(),
        workspace_id: ws.id,
        lead_id: lead,
        kind: 'note' as const,
        data: JSON.stringify({ body: `Old note ${i}`, author: 'import' }),
        occurred_at: new Date(base + i * 1000),
      })),
    )
    .execute();
  const long = await harness.request('GET', `/v1/leads/${lead}/journey`, { token: ws.key });
  assert.deepEqual([long.body.entries.length, long.body.total, long.body.earlier_omitted], [500, 503, 3]);
  assert.equal(long.body.entries[0].note.body, 'Old note 3', 'the three oldest are left out');
  assert.equal(long.body.entries[499].note.body, 'Note 53', 'the story ends with what happened last');
});

test('list_leads by a video not of the workspace is not_found on both transports, not an empty list', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const theirs = await other.addVideo({ title: 'Their video' });
  await other.addLead({ first_name: 'Theirs' });
  const client = await connectMcp(t, harness.app, (await ws.mintKey({ kind: 'assistant', scopes: ['leads:read'] })).key);
  for (const videoId of [theirs, randomUUID()]) {
    const res = await harness.request('GET', `/v1/leads?video_id=${videoId}`, { token: ws.key });
    assert.equal(res.status, 404, res.raw);
    assert.deepEqual([res.body.error.code, res.body.error.message], ['not_found', `No video with id ${videoId} in this workspace.`]);
    const tool = await callTool(client, 'list_leads', { video_id: videoId });
    assert.equal(tool.isError, true);
    assert.deepEqual(tool.structuredContent.error.code, 'not_found');
  }
  const mine = await harness.request('GET', `/v1/leads?video_id=${await ws.addVideo()}`, { token: ws.key });
  assert.equal(mine.status, 200, mine.raw);
  assert.deepEqual(mine.body.leads, []);
});
