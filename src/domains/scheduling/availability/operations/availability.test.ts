/**
 * get_scheduling_availability over HTTP (and MCP), on a fixed clock: every reason code provoked, the
 * runs of candidates not offered, one exact start explained, a spring-forward day in New York and a
 * week in Kolkata compared with a calendar computed independently through Intl, an inactive event
 * type, references by id and name, every problem of a call at once, masking, tenancy and the plan,
 * and the size of the largest answer.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../../test/helpers/mcp-client.ts';
import { SLOT_REASON_CODES } from '../slot-reasons.ts';

/** Monday 2027-03-01, noon UTC. */
const NOW = new Date('2027-03-01T12:00:00Z');
const MINUTE = 60_000;
const workingDay = [{ start: '09:00', end: '17:00' }];
const weekdays = JSON.stringify({ 1: workingDay, 2: workingDay, 3: workingDay, 4: workingDay, 5: workingDay });

// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields of JSON bodies
type Body = any;

const availability = async (harness: TestApp, ws: TestWorkspace, query: Record<string, string>) => {
  const res = await harness.request('GET', `/v1/scheduling/availability?${new URLSearchParams(query)}`, { token: ws.key });
  return res;
};

async function ok(harness: TestApp, ws: TestWorkspace, query: Record<string, string>): Promise<Body> {
  const res = await availability(harness, ws, query);
  assert.equal(res.status, 200, res.raw);
  return res.body;
}

/** The run of not-offered candidates holding this start, or 'offered', or undefined when it is no candidate. */
function verdictAt(body: Body, iso: string): Body {
  const at = new Date(iso).toISOString();
  if (body.offered.some((slot: Body) => slot.start === at)) return 'offered';
  return body.not_offered.find((run: Body) => run.start <= at && at <= run.last_start);
}

const codesAt = (body: Body, iso: string) => {
  const verdict = verdictAt(body, iso);
  return verdict === 'offered' ? [] : verdict?.reasons.map((reason: Body) => reason.code);
};

async function addBusyTime(harness: TestApp, ws: TestWorkspace, feedId: string, start: string, end: string) {
  await harness.database.db
    .insertInto('calendar_busy_times')
    .values({ feed_id: feedId, workspace_id: ws.id, starts_at: new Date(start), ends_at: new Date(end), summary: 'Dentist' })
    .execute();
}

test('every reason code, in runs of candidates, each with its sentence, counted per reason', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType({
    name: 'Intro call',
    weekly_hours: weekdays,
    buffer_before_minutes: 15,
    buffer_after_minutes: 15,
    minimum_notice_minutes: 120,
    horizon_days: 14,
    daily_cap: 2,
    date_overrides: JSON.stringify([{ date: '2027-03-03', hours: [] }]),
  });
  const booked = (start: string) =>
    ws.addBooking({
      event_type_id: eventTypeId,
      starts_at: new Date(start),
      ends_at: new Date(new Date(start).getTime() + 30 * MINUTE),
      buffer_before_minutes: 15,
      buffer_after_minutes: 15,
    });
  const tuesday = await booked('2027-03-02T10:00:00Z');
  await booked('2027-03-04T09:00:00Z');
  await booked('2027-03-04T15:00:00Z');
  const feed = await ws.addCalendarFeed({ name: 'Team calendar' });
  await addBusyTime(harness, ws, feed, '2027-03-05T13:00:00Z', '2027-03-05T14:00:00Z');

  const body = await ok(harness, ws, { event_type: 'Intro call', from: '2027-03-01T00:00:00Z', to: '2027-03-17T00:00:00Z' });
  assert.equal(body.event_type.event_type_id, eventTypeId);
  assert.equal(body.event_type.booking_url, `http://localhost:3000/book/${eventTypeId}`);
  assert.deepEqual([body.timezone, body.now, body.slot], ['UTC', NOW.toISOString(), null]);
  assert.equal(body.candidates, 16 * 48, 'every 30 minutes, day and night');
  assert.equal(body.offered_count + body.not_offered_count, body.candidates);
  assert.equal(body.offered.length, body.offered_count);
  assert.equal(
    body.not_offered.reduce((sum: number, run: Body) => sum + run.count, 0),
    body.not_offered_count,
    'every candidate not offered is in exactly one run',
  );
  // Each run lists its candidates: with the offered ones, every 30 minutes of the window, each once.
  const listed = [...body.offered.map((slot: Body) => slot.start), ...body.not_offered.flatMap((run: Body) => run.starts)].sort();
  assert.ok(
    body.not_offered.every(
      (run: Body) => run.starts.length === run.count && run.starts[0] === run.start && run.starts.at(-1) === run.last_start,
    ),
  );
  assert.deepEqual(
    listed,
    Array.from({ length: 16 * 48 }, (_, i) => new Date(Date.parse('2027-03-01T00:00:00Z') + i * 30 * 60_000).toISOString()),
  );

  // Monday: past (before 09:00 also outside the hours), min_notice up to 14:00, offered until 16:30.
  const monday = body.not_offered.filter((run: Body) => run.start < '2027-03-02');
  assert.deepEqual(
    monday.map((run: Body) => [run.local_start, run.local_last_start, run.count, run.reasons.map((r: Body) => r.code)]),
    [
      ['2027-03-01T00:00:00+00:00', '2027-03-01T08:30:00+00:00', 18, ['past', 'outside_hours']],
      ['2027-03-01T09:00:00+00:00', '2027-03-01T11:30:00+00:00', 6, ['past']],
      ['2027-03-01T12:00:00+00:00', '2027-03-01T13:30:00+00:00', 4, ['min_notice']],
      ['2027-03-01T17:00:00+00:00', '2027-03-01T23:30:00+00:00', 14, ['outside_hours']],
    ],
  );
  assert.deepEqual(
    body.offered.filter((slot: Body) => slot.start < '2027-03-02').map((slot: Body) => slot.start.slice(11, 16)),
    ['14:00', '14:30', '15:00', '15:30', '16:00', '16:30'],
  );
  assert.equal(monday[2].reasons[0].message, "It starts in 0 minutes; bookings need at least 120 minutes' notice.");

  // Tuesday: 08:30 is listed (outside the hours), the booking blocks 10:00, its buffers 09:30 and 10:30.
  const outside = verdictAt(body, '2027-03-02T08:30:00Z');
  assert.deepEqual(
    outside.reasons.map((r: Body) => r.code),
    ['outside_hours'],
  );
  assert.match(outside.reasons[0].message, /not inside one stretch of the Tuesday working hours \(09:00–17:00\)/);
  assert.deepEqual(codesAt(body, '2027-03-02T10:00:00Z'), ['booked']);
  assert.deepEqual(codesAt(body, '2027-03-02T09:30:00Z'), ['buffer']);
  assert.deepEqual(codesAt(body, '2027-03-02T10:30:00Z'), ['buffer']);
  assert.equal(verdictAt(body, '2027-03-02T11:00:00Z'), 'offered');
  const bookedReason = verdictAt(body, '2027-03-02T10:00:00Z').reasons[0];
  assert.match(bookedReason.message, new RegExp(`overlaps booking ${tuesday} \\(2027-03-02 10:00 \\(UTC\\+00:00\\)`));
  assert.deepEqual(bookedReason.bookings, [
    {
      booking_id: tuesday,
      event_type: 'Intro call',
      start: '2027-03-02T10:00:00.000Z',
      end: '2027-03-02T10:30:00.000Z',
      invitee_name: 'P***',
    },
  ]);
  assert.match(
    verdictAt(body, '2027-03-02T10:30:00Z').reasons[0].message,
    /15 minutes are kept free before each meeting and 15 minutes after/,
  );

  // Wednesday is closed by an override; Thursday is capped; Friday has busy calendar time.
  assert.deepEqual(codesAt(body, '2027-03-03T10:00:00Z'), ['date_override']);
  assert.match(verdictAt(body, '2027-03-03T10:00:00Z').reasons[0].message, /2027-03-03, which a date override closes all day/);
  assert.deepEqual(codesAt(body, '2027-03-04T12:00:00Z'), ['daily_cap']);
  assert.deepEqual(codesAt(body, '2027-03-04T09:00:00Z'), ['booked', 'daily_cap']);
  assert.match(verdictAt(body, '2027-03-04T12:00:00Z').reasons[0].message, /2027-03-04 already has 2 bookings, and the daily cap is 2/);
  const busy = verdictAt(body, '2027-03-05T13:00:00Z');
  assert.deepEqual(
    [busy.reasons.map((r: Body) => r.code), busy.count, busy.reasons[0].calendars],
    [['busy_calendar'], 2, [{ calendar_feed_id: feed, name: 'Team calendar' }]],
  );
  assert.match(busy.reasons[0].message, /busy time on calendar Team calendar \(2027-03-05 13:00/);
  assert.ok(!busy.reasons[0].message.includes('Dentist'), 'the busy event’s summary stays private');

  // The horizon: 14 days after Monday the 1st is Monday the 15th; Tuesday the 16th is beyond it.
  assert.equal(verdictAt(body, '2027-03-15T09:00:00Z'), 'offered');
  assert.deepEqual(codesAt(body, '2027-03-16T09:00:00Z'), ['beyond_horizon']);

  for (const code of SLOT_REASON_CODES.filter((code) => code !== 'off_interval')) {
    assert.ok(body.reason_counts[code] > 0, `${code} is counted`);
  }
  assert.deepEqual([body.reason_counts.booked, body.reason_counts.busy_calendar, body.reason_counts.inactive], [3, 2, 0]);
  assert.equal(body.reason_counts.past, 24, 'Monday 00:00 to 11:30');

  const offeredOnly = await ok(harness, ws, {
    event_type: eventTypeId,
    from: '2027-03-01T00:00:00Z',
    to: '2027-03-17T00:00:00Z',
    include: 'offered',
  });
  assert.deepEqual([offeredOnly.not_offered, offeredOnly.offered, offeredOnly.reason_counts], [[], body.offered, body.reason_counts]);
});

test('one exact start: offered or not, with every reason, off the grid too', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType({ name: 'Demo', weekly_hours: weekdays });
  const booking = await ws.addBooking({
    event_type_id: eventTypeId,
    starts_at: new Date('2027-03-02T10:00:00Z'),
    ends_at: new Date('2027-03-02T10:30:00Z'),
    invitee_email: 'jane.doe@example.com',
    invitee_name: 'Jane Doe',
  });

  const offered = await ok(harness, ws, { event_type: 'Demo', start: '2027-03-02T11:00:00Z', timezone: 'europe/berlin' });
  assert.deepEqual(offered.slot, {
    start: '2027-03-02T11:00:00.000Z',
    end: '2027-03-02T11:30:00.000Z',
    local_start: '2027-03-02T12:00:00+01:00',
    local_end: '2027-03-02T12:30:00+01:00',
    offered: true,
    reasons: [],
  });
  assert.equal(offered.timezone, 'Europe/Berlin', 'the display zone is named canonically');
  assert.deepEqual([offered.candidates, offered.offered_count, offered.window], [1, 1, { from: offered.slot.start, to: offered.slot.end }]);

  const taken = await ok(harness, ws, { event_type: 'Demo', start: '2027-03-02T10:00:00Z' });
  assert.equal(taken.slot.offered, false);
  assert.deepEqual(
    taken.slot.reasons.map((r: Body) => r.code),
    ['booked'],
  );
  assert.equal(taken.slot.reasons[0].bookings[0].booking_id, booking);
  assert.equal(taken.not_offered[0].count, 1);
  for (const secret of ['Jane', 'jane.doe', 'example.com'])
    assert.ok(!JSON.stringify(taken).includes(secret), `${secret} is not shown while masking`);

  // Masking off shows the invitee's name (the workspace's choice), never the email: that is list_bookings' to show.
  assert.equal((await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { mask_pii: false } })).status, 200);
  const unmasked = await ok(harness, ws, { event_type: 'Demo', start: '2027-03-02T10:00:00Z' });
  assert.equal(unmasked.slot.reasons[0].bookings[0].invitee_name, 'Jane Doe');
  assert.ok(!JSON.stringify(unmasked).includes('jane.doe'));

  const offGrid = await ok(harness, ws, { event_type: 'Demo', start: '2027-03-02T09:10:00Z' });
  assert.deepEqual(
    offGrid.slot.reasons.map((r: Body) => r.code),
    ['off_interval'],
  );
  assert.match(offGrid.slot.reasons[0].message, /starts are every 30 minutes from local midnight \(the nearest are 09:00 and 09:30\)/);
  assert.equal(offGrid.reason_counts.off_interval, 1);

  const early = await ok(harness, ws, { event_type: 'Demo', start: '2027-03-01T08:30:00Z' });
  assert.deepEqual(
    early.slot.reasons.map((r: Body) => r.code),
    ['past', 'outside_hours'],
  );
  assert.equal(early.slot.reasons[0].message, 'It starts at 2027-03-01 08:30 (UTC+00:00), which is already past.');
});

/** Local parts of an instant in a zone, read through Intl directly (no ZoneClock). */
function localParts(at: number, timeZone: string) {
  const parts: Record<string, string> = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
    weekday: parts.weekday ?? '',
  };
}

/**
 * The offered starts of a window computed independently: every instant on a 30-minute UTC step
 * (the zones here are whole or half hours from UTC, so the local grid is the UTC grid) whose
 * 30-minute slot lies inside one interval of its local start day's hours, read through Intl.
 */
function expectedOffered(from: string, to: string, timeZone: string, hours: Record<string, [number, number][]>): string[] {
  const starts: string[] = [];
  for (let at = new Date(from).getTime(); at < new Date(to).getTime(); at += 30 * MINUTE) {
    const start = localParts(at, timeZone);
    const end = localParts(at + 30 * MINUTE, timeZone);
    const endMinutes = end.date === start.date ? end.minutes : end.minutes + 1440;
    const open = hours[start.weekday] ?? [];
    if (open.some(([a, b]) => a <= start.minutes && endMinutes <= b)) {
      starts.push(new Date(at).toISOString());
    }
  }
  return starts;
}

test('a spring-forward Sunday in New York: slot by slot as an independent Intl calendar has it', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const night = [{ start: '01:00', end: '04:00' }, ...workingDay];
  const everyDay = Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((day) => [day, night]));
  await ws.addEventType({ name: 'Night owl', time_zone: 'America/New_York', weekly_hours: JSON.stringify(everyDay) });

  const from = '2027-03-13T05:00:00Z';
  const to = '2027-03-16T04:00:00Z';
  const body = await ok(harness, ws, { event_type: 'Night owl', from, to });
  const open: [number, number][] = [
    [60, 240],
    [540, 1020],
  ];
  const hours = Object.fromEntries(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((day) => [day, open]));
  assert.deepEqual(
    body.offered.map((slot: Body) => slot.start),
    expectedOffered(from, to, 'America/New_York', hours),
  );
  // The night of the change: 02:00 and 02:30 never happen; 01:30 EST ends at 03:00 EDT, inside 01:00–04:00.
  const sunday = body.offered.filter((slot: Body) => slot.local_start.startsWith('2027-03-14T0') && slot.local_start < '2027-03-14T05');
  assert.deepEqual(
    sunday.map((slot: Body) => [slot.local_start, slot.local_end]),
    [
      ['2027-03-14T01:00:00-05:00', '2027-03-14T01:30:00-05:00'],
      ['2027-03-14T01:30:00-05:00', '2027-03-14T03:00:00-04:00'],
      ['2027-03-14T03:00:00-04:00', '2027-03-14T03:30:00-04:00'],
      ['2027-03-14T03:30:00-04:00', '2027-03-14T04:00:00-04:00'],
    ],
  );
  assert.equal(
    body.candidates,
    (new Date(to).getTime() - new Date(from).getTime()) / (30 * MINUTE),
    'the lost hour has no candidates, and none is missing',
  );
});

test('a workspace in Asia/Kolkata (UTC+05:30): hours read in its zone, times shown in another', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType({ name: 'Kolkata call', time_zone: 'Asia/Kolkata', weekly_hours: weekdays });
  const from = '2027-03-07T18:30:00Z';
  const to = '2027-03-14T18:30:00Z';
  const body = await ok(harness, ws, { event_type: eventTypeId, from, to, timezone: 'America/New_York' });
  const hours = Object.fromEntries(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'].map((day) => [day, [[540, 1020]] as [number, number][]]));
  assert.deepEqual(
    body.offered.map((slot: Body) => slot.start),
    expectedOffered(from, to, 'Asia/Kolkata', hours),
  );
  assert.equal(body.offered.length, 5 * 16);
  assert.deepEqual(
    [body.offered[0].start, body.offered[0].local_start],
    ['2027-03-08T03:30:00.000Z', '2027-03-07T22:30:00-05:00'],
    'Monday 09:00 in Kolkata is Sunday evening in New York',
  );
  assert.equal(body.event_type.time_zone, 'Asia/Kolkata');
  const sunday = verdictAt(body, '2027-03-14T03:30:00Z');
  assert.match(sunday.reasons[0].message, /falls on a Sunday, which has no working hours/);
  assert.equal(sunday.local_start, '2027-03-13T13:30:00-05:00', 'the run begins at Kolkata’s midnight, shown in New York');
});

test('an inactive event type offers nothing and says why, on every candidate', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  await ws.addEventType({ name: 'Retired', weekly_hours: weekdays, active: false });
  const body = await ok(harness, ws, { event_type: 'Retired', from: '2027-03-02T00:00:00Z', to: '2027-03-03T00:00:00Z' });
  assert.deepEqual([body.event_type.active, body.offered_count, body.offered], [false, 0, []]);
  assert.equal(body.reason_counts.inactive, body.candidates);
  const workingHours = verdictAt(body, '2027-03-02T10:00:00Z');
  assert.deepEqual(
    workingHours.reasons.map((r: Body) => r.code),
    ['inactive'],
  );
  assert.equal(workingHours.reasons[0].message, 'The event type is inactive: it offers no slot until it is made active again.');
  assert.deepEqual(codesAt(body, '2027-03-02T08:00:00Z'), ['inactive', 'outside_hours'], 'what else holds is still said');
});

test('references by id or name, the default and longest windows, every problem of a call at once', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const first = await ws.addEventType({ name: 'Twin' });
  const second = await ws.addEventType({ name: 'Twin' });
  const current = await ws.addEventType({ name: 'Renamed' });
  await ws.addEventType({ name: 'Renamed', active: false });
  const problems = (res: Body) => res.body.error.details.errors.map((error: Body) => error.field);

  const ambiguous = await availability(harness, ws, { event_type: 'Twin' });
  assert.equal(ambiguous.status, 400, ambiguous.raw);
  assert.deepEqual(problems(ambiguous), ['event_type']);
  for (const id of [first, second]) assert.match(ambiguous.body.error.message, new RegExp(`${id} \\(“Twin”\\)`));
  assert.equal((await ok(harness, ws, { event_type: 'Renamed' })).event_type.event_type_id, current, 'the one active namesake');
  assert.equal((await ok(harness, ws, { event_type: first.toUpperCase() })).event_type.event_type_id, first);
  const caseOnly = await availability(harness, ws, { event_type: 'twin' });
  assert.match(caseOnly.body.error.message, /no event type is named exactly “twin”; names differ only in case/);

  const byDefault = await ok(harness, ws, { event_type: current });
  assert.deepEqual(byDefault.window, { from: NOW.toISOString(), to: '2027-03-08T12:00:00.000Z' });
  const longest = await ok(harness, ws, { event_type: current, from: '2027-03-01T00:00:00Z', to: '2027-04-01T00:00:00Z' });
  assert.equal(longest.candidates, 31 * 48);

  const tooLong = await availability(harness, ws, { event_type: current, from: '2027-03-01T00:00:00Z', to: '2027-04-01T00:01:00Z' });
  assert.match(tooLong.body.error.message, /to: must be at most 31 days after from/);
  const beforeNow = await availability(harness, ws, { event_type: current, to: '2027-03-01T11:00:00Z' });
  assert.match(beforeNow.body.error.message, /to: must be after from \(now, 2027-03-01T12:00:00.000Z\)/);

  const other = await harness.workspace();
  const foreign = await other.addEventType({ name: 'Secret call' });
  const everything = await availability(harness, ws, {
    event_type: 'Nothing has this name',
    from: '2027-03-05T00:00:00Z',
    to: '2027-03-04T00:00:00Z',
    timezone: 'Mars/Olympus',
  });
  assert.equal(everything.status, 400, everything.raw);
  assert.deepEqual(problems(everything).sort(), ['event_type', 'timezone', 'to']);
  const nul = await availability(harness, ws, { event_type: 'Intro\u0000call', from: '2027-03-05T00:00:00Z', to: '2027-03-04T00:00:00Z' });
  assert.deepEqual([nul.status, problems(nul).sort()], [400, ['event_type', 'to']], nul.raw);
  // An id is not a name: another workspace's, or one nobody has, is not_found (SPEC §1), even beside a
  // problem only the handler sees (start with from); beside a problem of the input's shape it is one
  // of the 400's problems.
  for (const id of [foreign, randomUUID()]) {
    const queries: Record<string, string>[] = [
      { event_type: id },
      { event_type: id, start: '2027-03-02T10:00:00Z', from: '2027-03-02T00:00:00Z' },
    ];
    for (const query of queries) {
      const missing = await availability(harness, ws, query);
      assert.equal(missing.status, 404, missing.raw);
      assert.equal(missing.body.error.code, 'not_found');
      assert.equal(missing.body.error.message, `No event type with id ${id} in this workspace.`);
      assert.deepEqual(problems(missing), ['event_type']);
      assert.ok(!missing.raw.includes('Secret call'), 'another workspace’s event type reveals nothing');
    }
  }
  const mixed = await availability(harness, ws, { event_type: foreign, timezone: 'Mars/Olympus' });
  assert.equal(mixed.status, 400, mixed.raw);
  assert.deepEqual(problems(mixed).sort(), ['event_type', 'timezone']);
  assert.match(mixed.body.error.message, new RegExp(`no event type in this workspace has the id ${foreign}`));
  assert.ok(!mixed.raw.includes('Secret call'), 'another workspace’s event type reveals nothing');
});

test('the plan must include scheduling; the scope is workspace:read; one MCP call', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const free = await harness.workspace('free');
  await free.addEventType({ name: 'Intro call' });
  const limited = await availability(harness, free, { event_type: 'Intro call' });
  assert.equal(limited.status, 403, limited.raw);
  assert.deepEqual([limited.body.error.code, limited.body.error.details.entitlement], ['plan_limit', 'scheduling']);

  const ws = await harness.workspace();
  await ws.addEventType({ name: 'Intro call', weekly_hours: weekdays });
  const reader = await ws.mintKey({ scopes: ['workspace:read'] });
  const read = await harness.request('GET', '/v1/scheduling/availability?event_type=Intro%20call', { token: reader.key });
  assert.equal(read.status, 200, read.raw);
  const assistant = await ws.mintKey({ kind: 'assistant', scopes: ['workspace:read'] });
  const client = await connectMcp(t, harness.app, assistant.key);
  const result = await callTool(client, 'get_scheduling_availability', { event_type: 'Intro call', start: '2027-03-02T09:00:00Z' });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual([result.structuredContent.slot.offered, result.structuredContent.slot.local_start], [true, '2027-03-02T09:00:00+00:00']);
  const foreign = await free.addEventType({ name: 'Not theirs' });
  const missing = await callTool(client, 'get_scheduling_availability', { event_type: foreign });
  assert.equal(missing.isError, true);
  assert.equal(missing.structuredContent.error.code, 'not_found', JSON.stringify(missing));
  assert.equal(missing.structuredContent.error.message, `No event type with id ${foreign} in this workspace.`);
});

test('the largest answer stays bounded: 31 days of 5-minute candidates', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const allDay = [{ start: '00:00', end: '24:00' }];
  const eventTypeId = await ws.addEventType({
    name: 'Around the clock',
    duration_minutes: 30,
    slot_interval_minutes: 5,
    time_zone: 'Europe/Berlin',
    weekly_hours: JSON.stringify({ 1: allDay, 2: allDay, 3: allDay, 4: allDay, 5: workingDay }),
  });
  for (let day = 0; day < 31; day++) {
    const start = new Date(Date.UTC(2027, 2, 1 + day, 10));
    await ws.addBooking({
      event_type_id: eventTypeId,
      starts_at: start,
      ends_at: new Date(start.getTime() + 30 * MINUTE),
      invitee_name: `Invitee ${randomUUID()}`,
    });
  }
  const query = { event_type: eventTypeId, from: '2027-03-01T00:00:00Z', to: '2027-04-01T00:00:00Z' };
  const res = await availability(harness, ws, query);
  assert.equal(res.status, 200, res.raw);
  assert.equal(res.body.candidates, 8928, 'every 5 minutes of real time, Berlin’s spring-forward night included');
  const bytes = Buffer.byteLength(res.raw);
  const runsBytes = Buffer.byteLength(JSON.stringify(res.body.not_offered));
  t.diagnostic(
    `${res.body.offered_count} offered, ${res.body.not_offered.length} runs for ${res.body.not_offered_count} not offered: ${bytes} bytes (runs ${runsBytes})`,
  );
  assert.ok(res.body.not_offered.length < 400, `${res.body.not_offered.length} runs`);
  assert.ok(runsBytes < 300_000, `the runs take ${runsBytes} bytes`);
  assert.ok(bytes < 1_500_000, `${bytes} bytes`);
  const offeredOnly = await availability(harness, ws, { ...query, include: 'offered' });
  assert.ok(Buffer.byteLength(offeredOnly.raw) < bytes);

  // A usual event type (30-minute calls, weekdays 09:00–17:00) over the longest window.
  const usual = await ws.addEventType({ name: 'Usual', weekly_hours: weekdays, time_zone: 'Europe/Berlin' });
  const month = await availability(harness, ws, { ...query, event_type: usual });
  t.diagnostic(`usual: ${month.body.offered_count} offered, ${month.body.not_offered.length} runs: ${Buffer.byteLength(month.raw)} bytes`);
  assert.ok(Buffer.byteLength(month.raw) < 150_000);
});

test('times near the end of year 9999 are a 400 naming the field, on availability, booking and the public page', async (t) => {
  const harness = await startTestApp(t, { clock: () => NOW });
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType({ name: 'Far call' });
  const late = '9999-12-31T23:30:00Z';
  const fields = (response: { body: Body }) => response.body.error?.details?.errors?.map((e: Body) => e.field);

  const window = await availability(harness, ws, { event_type: eventTypeId, from: '9999-12-31T00:00:00Z' });
  assert.equal(window.status, 400, window.raw);
  assert.deepEqual(fields(window), ['from', 'to']);
  const one = await availability(harness, ws, { event_type: eventTypeId, start: late });
  assert.equal(one.status, 400, one.raw);
  assert.deepEqual(fields(one), ['start']);

  const booking = await harness.request('POST', '/v1/bookings', {
    token: ws.key,
    body: { event_type_id: eventTypeId, start: late, invitee_email: 'far@example.com' },
  });
  assert.equal(booking.status, 400, booking.raw);
  assert.deepEqual(fields(booking), ['start']);

  const slots = await harness.request('GET', `/book/${eventTypeId}/slots?from=9999-12-31T00:00:00Z`);
  assert.equal(slots.status, 400, slots.raw);
  assert.deepEqual(fields(slots), ['from', 'to']);
});
