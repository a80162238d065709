/**
 * Scheduling's event type pages (issue 28): the list for every role, creating and editing an event type
 * (details, weekly hours, one day's override from the month calendar), each write checked through the
 * API, refused without the CSRF token and for roles without workspace:manage, and every problem shown
 * next to its field with the values kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';
const hours = [{ start: '09:00', end: '17:00' }];

async function setUp(t: Parameters<typeof startTestApp>[0]) {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const people = Object.fromEntries(
    await Promise.all(
      (['owner', 'admin', 'member', 'viewer'] as const).map(async (role) => {
        const member = await ws.addMember({ role, password: PASSWORD });
        return [role, await signIn(harness.app, member.email, PASSWORD)] as const;
      }),
    ),
  );
  const eventTypeId = await ws.addEventType({ name: 'Intro call', location: 'https://meet.example.com/intro' });
  const api = (path: string) => harness.request('GET', `/v1${path}`, { token: ws.key });
  return { harness, ws, people, eventTypeId, api };
}

test('the event types page and an event type render for every role; only owners and admins get the forms', async (t) => {
  const { people, eventTypeId } = await setUp(t);
  for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
    const list = await people[role]!.get('/app/scheduling');
    assert.equal(list.statusCode, 200, `${role}: ${list.body.slice(0, 300)}`);
    assert.match(list.body, /<h1>Scheduling<\/h1>/);
    assert.match(list.body, new RegExp(`<a href="/app/scheduling/event-types/${eventTypeId}">Intro call</a>`));
    assert.match(list.body, /Mon–Fri 09:00–17:00/);
    const manager = role === 'owner' || role === 'admin';
    assert.equal(list.body.includes('New event type'), manager, role);

    const page = await people[role]!.get(`/app/scheduling/event-types/${eventTypeId}`);
    assert.equal(page.statusCode, 200, role);
    assert.equal(page.body.includes('Save details'), manager, role);
    assert.equal(page.body.includes('Save weekly hours'), manager, role);
    assert.equal(page.body.includes(`/app/scheduling/event-types/${eventTypeId}/days/`), manager, `${role}: days link to their form`);
    assert.match(page.body, /<table class="sched-month"/, 'the month calendar is a table');
    assert.doesNotMatch(page.body, / style="|<script>/, 'nothing inline');
  }
  const missing = await people.owner!.get('/app/scheduling/event-types/00000000-0000-4000-8000-000000000000');
  assert.equal(missing.statusCode, 404);
});

test('an owner creates an event type; problems come back next to their fields with the values kept', async (t) => {
  const { people, api } = await setUp(t);
  const owner = people.owner!;
  const form = await owner.get('/app/scheduling/event-types/new');
  assert.equal(form.statusCode, 200);
  const csrf = csrfOf(form.body);

  const refused = await owner.post('/app/scheduling/event-types', {
    csrf,
    name: 'Demo',
    duration_minutes: '2',
    location: 'Room 4',
    value_amount: '150.00',
    value_currency: 'ZZZ',
  });
  assert.equal(refused.statusCode, 400);
  assert.match(refused.body, /id="f-duration_minutes"[^>]*aria-invalid="true"/);
  assert.match(refused.body, /<span class="field-error" id="f-duration_minutes-error">[^<]+<\/span>/);
  assert.match(refused.body, /<span class="field-error" id="f-value_currency-error">[^<]+<\/span>/);
  assert.match(refused.body, /role="alert"/);
  assert.match(refused.body, /name="name" type="text" value="Demo"/, 'values are kept');
  assert.match(refused.body, /name="location" type="text" value="Room 4"/);

  const created = await owner.post('/app/scheduling/event-types', {
    csrf,
    name: 'Product demo',
    duration_minutes: '45',
    slot_interval_minutes: '15',
    location: 'https://meet.example.com/demo',
    time_zone: 'Europe/London',
    buffer_before_minutes: '15',
    buffer_after_minutes: '15',
    minimum_notice_minutes: '240',
    horizon_days: '',
    daily_cap: '6',
    value_amount: '150.00',
    value_currency: 'usd',
  });
  assert.equal(created.statusCode, 303, created.body.slice(0, 500));
  assert.match(String(created.headers.location), /^\/app\/scheduling\/event-types\/[0-9a-f-]{36}\?done=created$/);
  const listed = (await api('/scheduling/event-types')).body.event_types.find((e: { name: string }) => e.name === 'Product demo');
  assert.deepEqual(
    {
      duration: listed.duration_minutes,
      interval: listed.slot_interval_minutes,
      zone: listed.time_zone,
      buffers: [listed.buffer_before_minutes, listed.buffer_after_minutes],
      notice: listed.minimum_notice_minutes,
      horizon: listed.horizon_days,
      cap: listed.daily_cap,
      value: listed.value,
    },
    {
      duration: 45,
      interval: 15,
      zone: 'Europe/London',
      buffers: [15, 15],
      notice: 240,
      horizon: null,
      cap: 6,
      value: { amount: 15000, currency: 'USD' },
    },
  );
  const page = await owner.get(String(created.headers.location));
  assert.match(page.body, /The event type is created/);
  // 15000 minor units of USD are $150.00 where the details are read, as typed (they once showed as $1.50).
  const read = await people.viewer!.get(String(created.headers.location).replace(/\?.*$/, ''));
  assert.match(read.body, /Value of a booked call<\/dt><dd>\$150\.00</);
});

test('members and viewers are not offered the new form, and the server refuses their writes', async (t) => {
  const { people, eventTypeId, api } = await setUp(t);
  for (const role of ['member', 'viewer'] as const) {
    const person = people[role]!;
    assert.equal((await person.get('/app/scheduling/event-types/new')).statusCode, 403);
    const csrf = csrfOf((await person.get('/app')).body);
    const create = await person.post('/app/scheduling/event-types', { csrf, name: `By ${role}`, duration_minutes: '30' });
    assert.equal(create.statusCode, 403, role);
    const rename = await person.post(`/app/scheduling/event-types/${eventTypeId}`, { csrf, name: 'Renamed', duration_minutes: '30' });
    assert.equal(rename.statusCode, 403, role);
    const week = await person.post(`/app/scheduling/event-types/${eventTypeId}/hours`, {
      csrf,
      monday_start_0: '08:00',
      monday_end_0: '09:00',
    });
    assert.equal(week.statusCode, 403, role);
  }
  const type = (await api(`/scheduling/event-types/${eventTypeId}`)).body;
  assert.equal(type.name, 'Intro call');
  assert.deepEqual(type.weekly_hours.monday, hours);
});

test('no write without the CSRF token', async (t) => {
  const { people, eventTypeId, api } = await setUp(t);
  const owner = people.owner!;
  for (const [path, fields] of [
    ['/app/scheduling/event-types', { name: 'Forged', duration_minutes: '30' }],
    [`/app/scheduling/event-types/${eventTypeId}`, { name: 'Forged', duration_minutes: '30' }],
    [`/app/scheduling/event-types/${eventTypeId}/hours`, { monday_start_0: '01:00', monday_end_0: '02:00' }],
    [`/app/scheduling/event-types/${eventTypeId}/days/2030-01-01`, { mode: 'closed' }],
  ] as const) {
    const response = await owner.post(path, { ...fields, csrf: 'wrong' });
    assert.equal(response.statusCode, 403, path);
  }
  const type = (await api(`/scheduling/event-types/${eventTypeId}`)).body;
  assert.equal(type.name, 'Intro call');
  assert.deepEqual(type.date_overrides, []);
});

test('an admin edits the details, deactivates, and sees a name clash on its field', async (t) => {
  const { ws, people, eventTypeId, api } = await setUp(t);
  await ws.addEventType({ name: 'Office hours' });
  const admin = people.admin!;
  const path = `/app/scheduling/event-types/${eventTypeId}`;
  const csrf = csrfOf((await admin.get(path)).body);
  const fields = {
    csrf,
    name: 'Intro call (30)',
    duration_minutes: '30',
    slot_interval_minutes: '30',
    location: '',
    time_zone: 'America/New_York',
    buffer_before_minutes: '0',
    buffer_after_minutes: '10',
    minimum_notice_minutes: '0',
    horizon_days: '30',
    daily_cap: '',
    value_amount: '',
    value_currency: '',
  };
  const saved = await admin.post(path, fields);
  assert.equal(saved.statusCode, 303);
  let type = (await api(`/scheduling/event-types/${eventTypeId}`)).body;
  assert.deepEqual(
    [type.name, type.location, type.time_zone, type.buffer_after_minutes, type.horizon_days, type.active],
    ['Intro call (30)', null, 'America/New_York', 10, 30, false],
    'an unticked Active box deactivates',
  );

  const clash = await admin.post(path, { ...fields, name: 'office HOURS', active: 'on' });
  assert.equal(clash.statusCode, 400);
  assert.match(clash.body, /<span class="field-error" id="f-name-error">Is the name of active event type/);
  assert.match(clash.body, /value="office HOURS"/);
  type = (await api(`/scheduling/event-types/${eventTypeId}`)).body;
  assert.equal(type.name, 'Intro call (30)');
});

test('weekly hours: one row per weekday, a second stretch, a closed day, and an overlap shown on its row', async (t) => {
  const { people, eventTypeId, api } = await setUp(t);
  const owner = people.owner!;
  const path = `/app/scheduling/event-types/${eventTypeId}`;
  const page = await owner.get(path);
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
    assert.match(page.body, new RegExp(`<span class="sched-day-name" id="wh-${day.toLowerCase()}">${day}</span>`));
  }
  assert.match(page.body, /name="monday_start_0" value="09:00"/);
  assert.match(page.body, /name="monday_start_1" value=""/, 'an empty pair to add a stretch');
  const csrf = csrfOf(page.body);
  const saved = await owner.post(`${path}/hours`, {
    csrf,
    monday_start_0: '09:00',
    monday_end_0: '12:00',
    monday_start_1: '13:00',
    monday_end_1: '17:00',
    tuesday_start_0: '18:00',
    tuesday_end_0: '00:00',
    wednesday_start_0: '09:00',
    wednesday_end_0: '17:00',
  });
  assert.equal(saved.statusCode, 303);
  const type = (await api(`/scheduling/event-types/${eventTypeId}`)).body;
  assert.deepEqual(type.weekly_hours.monday, [
    { start: '09:00', end: '12:00' },
    { start: '13:00', end: '17:00' },
  ]);
  assert.deepEqual(type.weekly_hours.tuesday, [{ start: '18:00', end: '24:00' }], '00:00 as an end is midnight');
  assert.deepEqual(type.weekly_hours.thursday, [], 'a day left empty is closed');

  const overlap = await owner.post(`${path}/hours`, {
    csrf,
    friday_start_0: '09:00',
    friday_end_0: '12:00',
    friday_start_1: '11:00',
    friday_end_1: '14:00',
  });
  assert.equal(overlap.statusCode, 400);
  assert.match(overlap.body, /<span class="field-error" id="f-friday-error">[^<]*[Oo]verlaps/);
  assert.match(overlap.body, /name="friday_start_1" value="11:00"/, 'the typed hours are kept');
  assert.deepEqual((await api(`/scheduling/event-types/${eventTypeId}`)).body.weekly_hours.friday, [], 'nothing written');
});

test('a day of the month calendar: close it, give it other hours, then back to the weekly hours', async (t) => {
  const { people, eventTypeId, api } = await setUp(t);
  const owner = people.owner!;
  const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const path = `/app/scheduling/event-types/${eventTypeId}/days/${day}`;
  const calendar = await owner.get(`/app/scheduling/event-types/${eventTypeId}?month=${day.slice(0, 7)}`);
  assert.match(calendar.body, new RegExp(`href="${path}"`), 'the calendar links the day to its form');
  const form = await owner.get(path);
  assert.equal(form.statusCode, 200);
  assert.match(form.body, /id="mode-weekly"[^>]* checked/);
  const csrf = csrfOf(form.body);

  assert.equal((await owner.post(path, { csrf, mode: 'closed' })).statusCode, 303);
  assert.deepEqual((await api(`/scheduling/event-types/${eventTypeId}`)).body.date_overrides, [{ date: day, hours: [] }]);
  const marked = await owner.get(`/app/scheduling/event-types/${eventTypeId}?month=${day.slice(0, 7)}`);
  assert.match(marked.body, /Closed \(date override\)/);

  const bad = await owner.post(path, { csrf, mode: 'hours', day_start_0: '15:00', day_end_0: '10:00' });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /<span class="field-error" id="f-hours-error">/);
  assert.match(bad.body, /name="day_start_0" value="15:00"/);

  assert.equal((await owner.post(path, { csrf, mode: 'hours', day_start_0: '10:00', day_end_0: '14:00' })).statusCode, 303);
  assert.deepEqual((await api(`/scheduling/event-types/${eventTypeId}`)).body.date_overrides, [
    { date: day, hours: [{ start: '10:00', end: '14:00' }] },
  ]);
  assert.equal((await owner.post(path, { csrf, mode: 'weekly' })).statusCode, 303);
  assert.deepEqual((await api(`/scheduling/event-types/${eventTypeId}`)).body.date_overrides, []);

  const viewer = people.viewer!;
  const viewerCsrf = csrfOf((await viewer.get('/app')).body);
  assert.equal((await viewer.post(path, { csrf: viewerCsrf, mode: 'closed' })).statusCode, 403);
  assert.deepEqual((await api(`/scheduling/event-types/${eventTypeId}`)).body.date_overrides, []);
});

test('a workspace on the free plan is told scheduling is not in its plan', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('free');
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  for (const path of ['/app/scheduling', '/app/scheduling/availability', '/app/scheduling/bookings', '/app/scheduling/calendars']) {
    const page = await person.get(path);
    assert.equal(page.statusCode, 403, path);
    assert.match(page.body, /Scheduling is part of the Pro and Business plans/, path);
    assert.match(page.body, /role="alert">This workspace is on a plan without scheduling/, path);
  }
});
