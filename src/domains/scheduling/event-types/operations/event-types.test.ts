/**
 * The event type operations over HTTP (and MCP): defaults (the workspace's zone, hours Monday to
 * Friday, slot interval = duration), weekly hours by weekday name stored as the engine reads them,
 * every problem of a call (shape, rules, a name an active event type has) named in one answer, patch
 * semantics (hours replaced whole, null clears, nothing sent changes nothing), the list with its
 * filter and cursors, plans, scopes and tenancy.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../../test/helpers/mcp-client.ts';
import { TIER_SCOPES } from '../../../../core/scopes.ts';

const PATH = '/v1/scheduling/event-types';

const create = (harness: TestApp, ws: TestWorkspace, body: unknown, token = ws.key) => harness.request('POST', PATH, { token, body });
const patch = (harness: TestApp, ws: TestWorkspace, id: string, body: unknown) =>
  harness.request('PATCH', `${PATH}/${id}`, { token: ws.key, body });

const problemsOf = (res: { body: { error: { details: { errors: { field: string; problem: string }[] } } } }) =>
  Object.fromEntries(res.body.error.details.errors.map((error) => [error.field, error.problem]));

const CLOSED = { tuesday: [], thursday: [], saturday: [], sunday: [] };

test('create_event_type: defaults from the workspace, hours by weekday name stored as ISO weekdays, booking_url', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const zone = await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { timezone: 'europe/paris' } });
  assert.equal(zone.status, 200, zone.raw);

  const plain = await create(harness, ws, { name: '  Intro call ', duration_minutes: 45 });
  assert.equal(plain.status, 201, plain.raw);
  const id = plain.body.event_type_id;
  const workingDay = [{ start: '09:00', end: '17:00' }];
  assert.deepEqual(plain.body, {
    event_type_id: id,
    name: 'Intro call',
    duration_minutes: 45,
    slot_interval_minutes: 45,
    buffer_before_minutes: 0,
    buffer_after_minutes: 0,
    minimum_notice_minutes: 0,
    horizon_days: 60,
    daily_cap: null,
    value: null,
    location: null,
    time_zone: 'Europe/Paris',
    weekly_hours: {
      monday: workingDay,
      tuesday: workingDay,
      wednesday: workingDay,
      thursday: workingDay,
      friday: workingDay,
      saturday: [],
      sunday: [],
    },
    date_overrides: [],
    active: true,
    booking_url: `http://localhost:3000/book/${id}`,
    created_at: plain.body.created_at,
    updated_at: plain.body.created_at,
  });

  const full = await create(harness, ws, {
    name: 'Demo',
    duration_minutes: 30,
    slot_interval_minutes: 15,
    buffer_before_minutes: 5,
    buffer_after_minutes: 10,
    minimum_notice_minutes: 120,
    horizon_days: null,
    daily_cap: 3,
    value: { amount: 15000, currency: 'eur' },
    location: 'https://meet.example.com/demo',
    time_zone: 'us/eastern',
    weekly_hours: {
      monday: [
        { start: '13:00', end: '17:00' },
        { start: '08:00', end: '12:00' },
      ],
      sunday: [{ start: '10:00', end: '24:00' }],
    },
    date_overrides: [
      { date: '2026-12-31', hours: [] },
      { date: '2026-12-24', hours: [{ start: '09:00', end: '11:00' }] },
    ],
    active: false,
  });
  assert.equal(full.status, 201, full.raw);
  assert.equal(full.body.time_zone, 'America/New_York', 'the zone is stored by its canonical name');
  assert.deepEqual(full.body.value, { amount: 15000, currency: 'EUR' });
  assert.deepEqual([full.body.slot_interval_minutes, full.body.horizon_days, full.body.daily_cap, full.body.active], [15, null, 3, false]);
  assert.deepEqual(full.body.weekly_hours.monday, [
    { start: '13:00', end: '17:00' },
    { start: '08:00', end: '12:00' },
  ]);
  assert.deepEqual(full.body.weekly_hours.sunday, [{ start: '10:00', end: '24:00' }]);
  assert.deepEqual(
    full.body.date_overrides.map((o: { date: string }) => o.date),
    ['2026-12-24', '2026-12-31'],
    'overrides by date',
  );
  const row = await harness.database.db
    .selectFrom('event_types')
    .where('id', '=', full.body.event_type_id)
    .select(['weekly_hours', 'value_amount'])
    .executeTakeFirstOrThrow();
  assert.deepEqual(Object.keys(row.weekly_hours).sort(), ['1', '7'], 'stored keyed by ISO weekday, as the slot engine reads it');
  assert.equal(row.value_amount, 15000);

  const got = await harness.request('GET', `${PATH}/${id}`, { token: ws.key });
  assert.equal(got.status, 200, got.raw);
  assert.deepEqual(got.body, plain.body);
});

test('create_event_type: every problem at once, of shape and of rules, under the API’s field names', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const res = await create(harness, ws, {
    name: '',
    duration_minutes: 2,
    buffer_after_minutes: -1,
    time_zone: 'Mars/Olympus',
    value: { amount: 10, currency: 'XXY' },
    weekly_hours: {
      monday: [{ start: '9:00', end: '17:00' }],
      tuesday: [
        { start: '09:00', end: '12:00' },
        { start: '11:00', end: '13:00' },
      ],
      friday: [{ start: '17:00', end: '09:00' }],
      someday: [],
    },
    date_overrides: [
      { date: '2026-02-30', hours: [] },
      { date: '2026-12-24', hours: [] },
      { date: '2026-12-24', hours: [{ start: '10:00', end: '25:00' }] },
    ],
  });
  assert.equal(res.status, 400, res.raw);
  const problems = problemsOf(res);
  assert.deepEqual(Object.keys(problems).sort(), [
    'buffer_after_minutes',
    'date_overrides[0].date',
    'date_overrides[2].date',
    'date_overrides[2].hours[0].end',
    'duration_minutes',
    'name',
    'time_zone',
    'value.currency',
    'weekly_hours.friday[0]',
    'weekly_hours.monday[0].start',
    'weekly_hours.someday',
    'weekly_hours.tuesday[1]',
  ]);
  assert.match(problems['weekly_hours.tuesday[1]'] as string, /overlaps weekly_hours\.tuesday\[0\]/);
  assert.match(problems['weekly_hours.friday[0]'] as string, /ends \(09:00\) before it starts \(17:00\)/);
  assert.match(problems['date_overrides[2].date'] as string, /repeats 2026-12-24/);
  assert.match(
    problems['weekly_hours.someday'] as string,
    /is not an accepted name: it must be one of: monday, tuesday/,
    'a key that is no weekday',
  );

  const list = await harness.request('GET', PATH, { token: ws.key });
  assert.equal(list.body.pagination.total, 0, 'nothing was written');
});

test('names are unique among active event types, case aside; an inactive one gives its name up', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const first = await create(harness, ws, { name: 'Intro call', duration_minutes: 30 });
  assert.equal(first.status, 201, first.raw);

  const clash = await create(harness, ws, {
    name: ' INTRO CALL ',
    duration_minutes: 20,
    weekly_hours: { monday: [{ start: 'x', end: '10:00' }] },
  });
  assert.equal(clash.status, 400, clash.raw);
  const problems = problemsOf(clash);
  assert.deepEqual(Object.keys(problems).sort(), ['name', 'weekly_hours.monday[0].start'], 'the name named with the rules');
  assert.match(problems.name as string, new RegExp(`active event type ${first.body.event_type_id} \\(“Intro call”\\)`));

  // A name of 100 characters that are two UTF-16 units each (emoji) is held to the rule too.
  const emoji = '😀'.repeat(100);
  assert.equal((await create(harness, ws, { name: emoji, duration_minutes: 30 })).status, 201);
  const again = await create(harness, ws, { name: emoji, duration_minutes: 30 });
  assert.equal(again.status, 400, again.raw);
  assert.deepEqual(Object.keys(problemsOf(again)), ['name']);

  // With a shape problem too, the name is still named.
  const both = await create(harness, ws, { name: 'intro call', duration_minutes: 'long' });
  assert.deepEqual(Object.keys(problemsOf(both)).sort(), ['duration_minutes', 'name']);

  const inactive = await create(harness, ws, { name: 'Intro call', duration_minutes: 30, active: false });
  assert.equal(inactive.status, 201, 'an inactive event type may share the name');
  const reactivate = await patch(harness, ws, inactive.body.event_type_id, { active: true });
  assert.equal(reactivate.status, 400, reactivate.raw);
  assert.match(problemsOf(reactivate).active as string, /is the name of active event type/);

  const other = await create(harness, ws, { name: 'Demo', duration_minutes: 30 });
  const rename = await patch(harness, ws, other.body.event_type_id, { name: 'intro Call' });
  assert.equal(rename.status, 400, rename.raw);
  assert.deepEqual(Object.keys(problemsOf(rename)), ['name']);
  const same = await patch(harness, ws, first.body.event_type_id, { name: 'Intro Call' });
  assert.equal(same.status, 200, 'renaming itself in another case is no clash');

  const retired = await patch(harness, ws, first.body.event_type_id, { active: false });
  assert.equal(retired.status, 200, retired.raw);
  const back = await patch(harness, ws, inactive.body.event_type_id, { active: true });
  assert.equal(back.status, 200, back.raw);
});

test('update_event_type: only what is sent changes; hours replace whole; null clears; nothing sent changes nothing', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const made = await create(harness, ws, {
    name: 'Consult',
    duration_minutes: 60,
    daily_cap: 2,
    value: { amount: 500, currency: 'USD' },
    location: 'Main street 1',
    weekly_hours: { monday: [{ start: '09:00', end: '12:00' }], friday: [{ start: '09:00', end: '12:00' }] },
    date_overrides: [{ date: '2026-12-24', hours: [] }],
  });
  const id = made.body.event_type_id;

  const unchanged = await patch(harness, ws, id, {});
  assert.equal(unchanged.status, 200, unchanged.raw);
  assert.deepEqual(unchanged.body, made.body, 'an empty patch changes nothing, not even updated_at');

  const changed = await patch(harness, ws, id, {
    duration_minutes: 30,
    weekly_hours: { wednesday: [{ start: '14:00', end: '18:00' }] },
    daily_cap: null,
    value: null,
    location: null,
    time_zone: 'Europe/Berlin',
  });
  assert.equal(changed.status, 200, changed.raw);
  assert.deepEqual(changed.body.weekly_hours, {
    monday: [],
    tuesday: [],
    wednesday: [{ start: '14:00', end: '18:00' }],
    thursday: [],
    friday: [],
    saturday: [],
    sunday: [],
  });
  assert.deepEqual(
    [changed.body.duration_minutes, changed.body.slot_interval_minutes, changed.body.daily_cap, changed.body.value, changed.body.location],
    [30, 60, null, null, null],
    'the slot interval stays what it was: only fields sent change',
  );
  assert.equal(changed.body.time_zone, 'Europe/Berlin');
  assert.deepEqual(changed.body.date_overrides, made.body.date_overrides, 'overrides not sent are kept');
  assert.ok(changed.body.updated_at > made.body.updated_at || changed.body.updated_at === made.body.updated_at);
  assert.equal(changed.body.created_at, made.body.created_at);

  const cleared = await patch(harness, ws, id, { date_overrides: [] });
  assert.deepEqual(cleared.body.date_overrides, []);

  const bad = await patch(harness, ws, id, {
    slot_interval_minutes: 1,
    weekly_hours: { ...CLOSED, monday: [{ start: '10:00', end: '09:00' }] },
  });
  assert.equal(bad.status, 400, bad.raw);
  assert.deepEqual(Object.keys(problemsOf(bad)).sort(), ['slot_interval_minutes', 'weekly_hours.monday[0]']);
  const after = await harness.request('GET', `${PATH}/${id}`, { token: ws.key });
  assert.deepEqual(after.body, cleared.body, 'a refused patch changes nothing');

  const missing = await patch(harness, ws, '00000000-0000-4000-8000-000000000000', { name: 'x' });
  assert.equal(missing.status, 404, missing.raw);
});

test('list_event_types: newest first, the active filter, cursors and totals', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const ids: string[] = [];
  for (const [name, active] of [
    ['A', true],
    ['B', false],
    ['C', true],
  ] as const) {
    const res = await create(harness, ws, { name, duration_minutes: 30, active });
    ids.push(res.body.event_type_id);
  }
  const all = await harness.request('GET', `${PATH}?limit=2`, { token: ws.key });
  assert.equal(all.status, 200, all.raw);
  assert.deepEqual(
    all.body.event_types.map((e: { name: string }) => e.name),
    ['C', 'B'],
  );
  assert.equal(all.body.pagination.total, 3);
  const next = await harness.request('GET', `${PATH}?limit=2&cursor=${all.body.pagination.next_cursor}`, { token: ws.key });
  assert.deepEqual(
    next.body.event_types.map((e: { name: string }) => e.name),
    ['A'],
  );
  const active = await harness.request('GET', `${PATH}?active=true`, { token: ws.key });
  assert.deepEqual(
    active.body.event_types.map((e: { name: string }) => e.name),
    ['C', 'A'],
  );
  const inactive = await harness.request('GET', `${PATH}?active=false`, { token: ws.key });
  assert.deepEqual(
    inactive.body.event_types.map((e: { event_type_id: string }) => e.event_type_id),
    [ids[1]],
  );
  const wrongCursor = await harness.request('GET', `${PATH}?active=true&cursor=${all.body.pagination.next_cursor}`, { token: ws.key });
  assert.equal(wrongCursor.status, 400, 'a cursor is bound to its filters');
});

test('event types: plan, scopes, tenancy, and MCP', async (t) => {
  const harness = await startTestApp(t);
  const free = await harness.workspace('free');
  const refused = await create(harness, free, { name: 'Intro', duration_minutes: 30 });
  assert.equal(refused.status, 403, refused.raw);
  assert.equal(refused.body.error.code, 'plan_limit');
  assert.equal(refused.body.error.details.entitlement, 'scheduling');
  const freeList = await harness.request('GET', PATH, { token: free.key });
  assert.equal(freeList.status, 403);

  const ws = await harness.workspace();
  const made = await create(harness, ws, { name: 'Intro', duration_minutes: 30 });
  const id = made.body.event_type_id;
  const read = await ws.mintKey({ scopes: [...TIER_SCOPES.read] });
  const write = await ws.mintKey({ scopes: [...TIER_SCOPES.write] });
  assert.equal((await harness.request('GET', `${PATH}/${id}`, { token: read.key })).status, 200, 'workspace:read reads');
  assert.equal((await harness.request('GET', PATH, { token: read.key })).status, 200);
  for (const key of [read.key, write.key]) {
    const denied = await create(harness, ws, { name: 'Other', duration_minutes: 30 }, key);
    assert.equal(denied.status, 403, denied.raw);
    assert.equal(denied.body.error.details.required_scope, 'workspace:manage');
  }

  const other = await harness.workspace();
  const foreign = await harness.request('GET', `${PATH}/${id}`, { token: other.key });
  assert.equal(foreign.status, 404, foreign.raw);
  const foreignPatch = await patch(harness, other, id, { active: false });
  assert.equal(foreignPatch.status, 404, foreignPatch.raw);
  const theirs = await harness.request('GET', PATH, { token: other.key });
  assert.equal(theirs.body.pagination.total, 0);
  const sameName = await create(harness, other, { name: 'Intro', duration_minutes: 30 });
  assert.equal(sameName.status, 201, 'names are unique within a workspace, not across them');

  const client = await connectMcp(t, harness.app, ws.key);
  const viaMcp = await callTool(client, 'update_event_type', {
    event_type_id: id,
    weekly_hours: { saturday: [{ start: '10:00', end: '14:00' }] },
  });
  assert.notEqual(viaMcp.isError, true, JSON.stringify(viaMcp.content));
  assert.deepEqual(viaMcp.structuredContent.weekly_hours.saturday, [{ start: '10:00', end: '14:00' }]);
  assert.deepEqual(viaMcp.structuredContent.weekly_hours.monday, []);
  const listed = await callTool(client, 'list_event_types', {});
  assert.deepEqual(
    listed.structuredContent.event_types.map((e: { event_type_id: string }) => e.event_type_id),
    [id],
  );
});

test('concurrent creates of one name: exactly one is made, the others are told who holds the name', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const answers = await Promise.all(Array.from({ length: 6 }, () => create(harness, ws, { name: 'Race', duration_minutes: 30 })));
  const made = answers.filter((res) => res.status === 201);
  assert.equal(made.length, 1, answers.map((res) => res.status).join(','));
  for (const res of answers.filter((answer) => answer.status !== 201)) {
    assert.equal(res.status, 400, res.raw);
    assert.match(problemsOf(res).name as string, new RegExp(made[0]?.body.event_type_id));
  }
});
