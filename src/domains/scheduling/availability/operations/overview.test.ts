/**
 * get_scheduling_overview over HTTP on a fixed clock: the numbers of an event type counted by hand
 * (offered and booked slots in 7 and 28 days, utilization, busiest weekdays and hours), every
 * configuration problem provoked, the calendar feeds, tenancy and the plan.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../../test/helpers/app.ts';

/** Monday 2027-03-01, noon UTC. */
const NOW = new Date('2027-03-01T12:00:00Z');
const MINUTE = 60_000;
const workingDay = [{ start: '09:00', end: '17:00' }];
const weekdays = JSON.stringify({ 1: workingDay, 2: workingDay, 3: workingDay, 4: workingDay, 5: workingDay });

// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields of JSON bodies
type Body = any;

async function overview(harness: TestApp, ws: TestWorkspace): Promise<Body> {
  const res = await harness.request('GET', '/v1/scheduling/overview', { token: ws.key });
  assert.equal(res.status, 200, res.raw);
  return res.body;
}

const lineOf = (body: Body, name: string) => body.event_types.find((line: Body) => line.name === name);

test('an event type’s numbers, counted by hand', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType({ name: 'Intro call', weekly_hours: weekdays });
  const book = (start: string, fields: Record<string, unknown> = {}) =>
    ws.addBooking({
      event_type_id: eventTypeId,
      starts_at: new Date(start),
      ends_at: new Date(new Date(start).getTime() + 30 * MINUTE),
      ...fields,
    });
  // Ahead: two in the next 7 days, one more in the next 28; a canceled one counts nowhere.
  await book('2027-03-02T10:00:00Z');
  await book('2027-03-03T14:00:00Z');
  await book('2027-03-16T09:00:00Z');
  await book('2027-03-04T11:00:00Z', { status: 'canceled', canceled_at: NOW, canceled_by: 'workspace' });
  // Behind: three in the last 90 days, one before them.
  await book('2027-02-02T10:00:00Z');
  await book('2027-02-09T10:00:00Z');
  await book('2027-02-10T14:00:00Z');
  await book('2026-11-03T16:00:00Z');

  const body = await overview(harness, ws);
  assert.deepEqual([body.now, body.active_event_types, body.inactive_event_types, body.calendars], [NOW.toISOString(), 1, 0, []]);
  const line = lineOf(body, 'Intro call');
  assert.deepEqual(
    [line.event_type_id, line.active, line.time_zone, line.duration_minutes, line.booking_url],
    [eventTypeId, true, 'UTC', 30, `http://localhost:3000/book/${eventTypeId}`],
  );
  assert.deepEqual(line.next_offered, { start: '2027-03-01T12:00:00.000Z', local_start: '2027-03-01T12:00:00+00:00' });
  // 7 days from Monday noon: 10 slots Monday, 64 Tuesday to Friday, 6 the next Monday morning: 80, two booked.
  assert.deepEqual(line.next_7_days, { offered: 78, booked: 2, utilization: 0.025 });
  // 28 days: 10 + 64 + three whole weeks of 80 + 6 = 320, three booked.
  assert.deepEqual(line.next_28_days, { offered: 317, booked: 3, utilization: 0.009 });
  assert.deepEqual(line.busiest_weekdays, [
    { weekday: 'tuesday', bookings: 4 },
    { weekday: 'wednesday', bookings: 2 },
  ]);
  assert.deepEqual(line.busiest_hours, [
    { hour: 10, bookings: 3 },
    { hour: 14, bookings: 2 },
    { hour: 9, bookings: 1 },
  ]);
  assert.deepEqual(line.problems, []);
});

test('weekdays and hours are read in the event type’s zone', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType({ name: 'Kolkata call', time_zone: 'Asia/Kolkata', weekly_hours: weekdays });
  // Monday 20:00 UTC is Tuesday 01:30 in Kolkata.
  await ws.addBooking({
    event_type_id: eventTypeId,
    starts_at: new Date('2027-03-08T20:00:00Z'),
    ends_at: new Date('2027-03-08T20:30:00Z'),
  });
  const line = lineOf(await overview(harness, ws), 'Kolkata call');
  assert.deepEqual([line.busiest_weekdays, line.busiest_hours], [[{ weekday: 'tuesday', bookings: 1 }], [{ hour: 1, bookings: 1 }]]);
  assert.deepEqual(line.next_offered, { start: '2027-03-02T03:30:00.000Z', local_start: '2027-03-02T09:00:00+05:30' });
});

test('every configuration problem: inactive, no_hours, fully_blocked, calendar_failing', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  await ws.addEventType({ name: 'Retired', weekly_hours: weekdays, active: false });
  await ws.addEventType({ name: 'No hours', weekly_hours: '{}' });
  await ws.addEventType({
    name: 'One open day',
    weekly_hours: '{}',
    date_overrides: JSON.stringify([{ date: '2027-03-10', hours: [{ start: '09:00', end: '12:00' }] }]),
  });
  await ws.addEventType({
    name: 'Past override',
    weekly_hours: '{}',
    date_overrides: JSON.stringify([{ date: '2027-02-10', hours: workingDay }]),
  });

  const body = await overview(harness, ws);
  assert.deepEqual([body.active_event_types, body.inactive_event_types], [3, 1]);
  assert.deepEqual(
    body.event_types.map((line: Body) => [line.name, line.problems.map((p: Body) => p.code)]),
    [
      ['No hours', ['no_hours']],
      ['One open day', []],
      ['Past override', ['no_hours']],
      ['Retired', ['inactive']],
    ],
    'active first, then by name',
  );
  const retired = lineOf(body, 'Retired');
  assert.deepEqual([retired.next_offered, retired.next_28_days], [null, { offered: 0, booked: 0, utilization: null }]);
  assert.deepEqual(lineOf(body, 'One open day').next_28_days, { offered: 6, booked: 0, utilization: 0 });
  assert.match(lineOf(body, 'No hours').problems[0].message, /no weekly hours and no date override opening a day from today on/);

  // A vacation on a calendar that works, and two that fail: one read before, one never.
  const vacation = await ws.addCalendarFeed({ name: 'Vacation' });
  await harness.database.db
    .insertInto('calendar_busy_times')
    .values({
      feed_id: vacation,
      workspace_id: ws.id,
      starts_at: new Date('2027-02-28T00:00:00Z'),
      ends_at: new Date('2027-04-30T00:00:00Z'),
      summary: 'Away',
    })
    .execute();
  const stale = await ws.addCalendarFeed({ name: 'Stale', url: 'https://calendar.example.com/private/stale.ics' });
  const never = await ws.addCalendarFeed({ name: 'Never read', url: 'https://calendar.example.com/never.ics' });
  const fetchedAt = new Date('2027-03-01T11:45:00Z');
  await harness.database.db
    .updateTable('calendar_feeds')
    .set({
      last_fetched_at: fetchedAt,
      last_success_at: new Date('2027-02-27T08:00:00Z'),
      last_error: 'The server answered 500.',
      busy_count: 4,
    })
    .where('id', '=', stale)
    .execute();
  await harness.database.db
    .updateTable('calendar_feeds')
    .set({ last_fetched_at: fetchedAt, last_error: 'The feed is not iCalendar.' })
    .where('id', '=', never)
    .execute();

  const blocked = await overview(harness, ws);
  const open = lineOf(blocked, 'One open day');
  assert.deepEqual(
    open.problems.map((p: Body) => [p.code, p.calendar_feed_id ?? null]),
    [
      ['fully_blocked', null],
      ['calendar_failing', never],
      ['calendar_failing', stale],
    ],
  );
  assert.equal(open.problems[0].message, 'No slot is offered in the next 28 days: of the 6 candidates inside its hours, busy_calendar 6.');
  assert.equal(
    open.problems[2].message,
    'Calendar “Stale” failed its last fetch at 2027-03-01T11:45:00.000Z (The server answered 500): the busy times of its last successful fetch (2027-02-27T08:00:00.000Z) still block slots, and newer events are missed.',
  );
  assert.match(
    open.problems[1].message,
    /“Never read” failed its last fetch .*: it has never been read, so none of its events block slots\./,
  );
  assert.deepEqual(
    lineOf(blocked, 'Retired').problems.map((p: Body) => p.code),
    ['inactive'],
    'an inactive type has nothing else to fix first',
  );
  assert.deepEqual(
    blocked.calendars.map((feed: Body) => [feed.name, feed.url, feed.last_error, feed.busy_count]),
    [
      ['Never read', 'https://calendar.example.com/…', 'The feed is not iCalendar.', 0],
      ['Stale', 'https://calendar.example.com/private/…', 'The server answered 500.', 4],
      ['Vacation', 'https://calendar.example.com/private/…', null, 0],
    ],
  );
  assert.equal(blocked.calendars[1].last_success_at, '2027-02-27T08:00:00.000Z');
  assert.ok(!JSON.stringify(blocked).includes('stale.ics'), 'a feed’s URL is shown shortened, never whole');
});

test('the plan must include scheduling; another workspace’s event types and calendars stay out', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const free = await harness.workspace('free');
  const limited = await harness.request('GET', '/v1/scheduling/overview', { token: free.key });
  assert.equal(limited.status, 403, limited.raw);
  assert.deepEqual([limited.body.error.code, limited.body.error.details.entitlement], ['plan_limit', 'scheduling']);

  const other = await harness.workspace();
  await other.addEventType({ name: 'Secret call' });
  await other.addCalendarFeed({ name: 'Secret calendar' });
  const ws = await harness.workspace();
  const body = await overview(harness, ws);
  assert.deepEqual([body.event_types, body.calendars, body.active_event_types], [[], [], 0]);
  const reader = await ws.mintKey({ scopes: ['workspace:read'] });
  assert.equal((await harness.request('GET', '/v1/scheduling/overview', { token: reader.key })).status, 200);
});
