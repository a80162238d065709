/**
 * The booking operations over HTTP (and MCP): booking an offered slot (lead, ledger entry, events,
 * times in the invitee's zone), the 409 with every reason and the next slots, concurrent bookings of
 * one slot and of overlapping slots, lists by scope with cursors, masking, cancel, reschedule, plans
 * and scopes, and the invitee's calendar file and cancel page.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../../test/helpers/app.ts';

/** Monday 30 November 2026, 08:00 UTC: every test's clock, so nothing depends on when it runs. */
const NOW = new Date('2026-11-30T08:00:00Z');
const clock = () => NOW;

const post = (harness: TestApp, ws: TestWorkspace, path: string, body: unknown, token = ws.key) =>
  harness.request('POST', `/v1${path}`, { token, body });

const book = (harness: TestApp, ws: TestWorkspace, eventTypeId: string, start: string, extra: Record<string, unknown> = {}) =>
  post(harness, ws, '/bookings', { event_type_id: eventTypeId, start, invitee_email: 'ada@example.com', ...extra });

/** A workspace that shows personal data as it is (masking is on by default). */
async function unmaskedWorkspace(harness: TestApp): Promise<TestWorkspace> {
  const ws = await harness.workspace('pro');
  await harness.database.db.updateTable('workspaces').set({ mask_pii: false }).where('id', '=', ws.id).execute();
  return ws;
}

test('create_booking: an offered slot is booked, the lead captured, a booked_call recorded, the events sent', async (t) => {
  const harness = await startTestApp(t, { clock });
  const ws = await unmaskedWorkspace(harness);
  const eventType = await ws.addEventType({
    name: 'Demo',
    location: 'https://meet.example.com/demo',
    value_amount: 15000,
    value_currency: 'EUR',
  });

  const res = await book(harness, ws, eventType, '2026-12-01T10:00:00Z', {
    invitee_name: 'Ada Lovelace',
    invitee_phone: '+44 20 7946 0958',
    invitee_timezone: 'europe/berlin',
  });
  assert.equal(res.status, 201, res.raw);
  const booking = res.body;
  assert.deepEqual(booking.event_type, { event_type_id: eventType, name: 'Demo', location: 'https://meet.example.com/demo' });
  assert.equal(booking.status, 'confirmed');
  assert.deepEqual([booking.start, booking.end], ['2026-12-01T10:00:00.000Z', '2026-12-01T10:30:00.000Z']);
  assert.equal(booking.invitee_timezone, 'Europe/Berlin');
  assert.deepEqual([booking.invitee_start, booking.invitee_end], ['2026-12-01T11:00:00+01:00', '2026-12-01T11:30:00+01:00']);
  assert.deepEqual(
    [booking.invitee_email, booking.invitee_name, booking.invitee_phone],
    ['ada@example.com', 'Ada Lovelace', '+44 20 7946 0958'],
  );
  assert.deepEqual(booking.value, { amount: 15000, currency: 'EUR' });
  assert.match(
    booking.calendar_file_url,
    new RegExp(`^http://localhost:3000/bookings/${booking.booking_id}/invite\\.ics\\?token=[A-Za-z0-9_-]{43}$`),
  );
  assert.match(booking.cancel_url, new RegExp(`^http://localhost:3000/bookings/${booking.booking_id}/cancel\\?token=[A-Za-z0-9_-]{43}$`));
  assert.equal(booking.created_at, NOW.toISOString());

  const db = harness.database.db;
  const lead = await db.selectFrom('leads').selectAll().where('id', '=', booking.lead_id).executeTakeFirstOrThrow();
  assert.deepEqual(
    [lead.workspace_id, lead.email, lead.name, lead.phone, lead.source],
    [ws.id, 'ada@example.com', 'Ada Lovelace', '+44 20 7946 0958', 'booking'],
  );
  assert.equal(lead.status, 'qualified', 'a booked call qualifies a new lead');
  const outcome = await db.selectFrom('outcomes').selectAll().where('id', '=', booking.outcome_id).executeTakeFirstOrThrow();
  assert.deepEqual(
    [outcome.kind, outcome.status, Number(outcome.amount), outcome.currency, outcome.source, outcome.lead_id],
    ['booked_call', 'succeeded', 15000, 'EUR', 'booking', booking.lead_id],
  );
  const stored = await db.selectFrom('bookings').selectAll().where('id', '=', booking.booking_id).executeTakeFirstOrThrow();
  assert.equal(stored.cancel_token_hash.length, 64, 'only the SHA-256 of the secret is stored');
  assert.ok(!booking.cancel_url.includes(stored.cancel_token_hash));
  const activities = await db.selectFrom('lead_activities').select(['kind', 'data']).where('lead_id', '=', booking.lead_id).execute();
  const step = activities.find((activity) => activity.kind === 'booking');
  assert.equal(step?.data.action, 'booked');
  assert.equal(step?.data.booking_id, booking.booking_id);

  assert.deepEqual(await harness.eventTypes(ws.id), ['lead.created', 'lead.updated', 'outcome.created', 'booking.created']);
  const event = await db
    .selectFrom('events')
    .select('data')
    .where('workspace_id', '=', ws.id)
    .where('type', '=', 'booking.created')
    .executeTakeFirstOrThrow();
  assert.equal((event.data as { booking: { start: string } }).booking.start, '2026-12-01T10:00:00.000Z');

  // A known lead is only filled in: a booking never renames it or changes its phone.
  const again = await book(harness, ws, eventType, '2026-12-01T11:00:00Z', {
    invitee_email: 'ADA@example.com',
    invitee_name: 'Someone Else',
  });
  assert.equal(again.status, 201, again.raw);
  assert.equal(again.body.lead_id, booking.lead_id);
  assert.equal(again.body.invitee_timezone, 'UTC', 'the event type’s zone by default');
  const same = await db.selectFrom('leads').select(['email', 'name']).where('id', '=', booking.lead_id).executeTakeFirstOrThrow();
  assert.deepEqual([same.email, same.name], ['ada@example.com', 'Ada Lovelace']);

  // An event type without a value books a call worth 0 USD.
  const free = await ws.addEventType({ name: 'Chat' });
  const chat = await book(harness, ws, free, '2026-12-02T09:00:00Z');
  assert.equal(chat.status, 201, chat.raw);
  assert.deepEqual(chat.body.value, { amount: 0, currency: 'USD' });
});

test('create_booking: a start not offered is 409 with every reason and the next offered slots', async (t) => {
  const harness = await startTestApp(t, { clock });
  const ws = await unmaskedWorkspace(harness);
  const eventType = await ws.addEventType({ buffer_after_minutes: 15 });
  const taken = await ws.addBooking({
    event_type_id: eventType,
    starts_at: new Date('2026-12-01T10:00:00Z'),
    ends_at: new Date('2026-12-01T10:30:00Z'),
    invitee_email: 'grace@example.com',
    invitee_name: 'Grace Hopper',
    buffer_after_minutes: 15,
  });

  const res = await book(harness, ws, eventType, '2026-12-01T10:00:00Z', { invitee_timezone: 'Asia/Kolkata' });
  assert.equal(res.status, 409, res.raw);
  const { details } = res.body.error;
  assert.equal(details.reason, 'slot_not_offered');
  assert.deepEqual(
    details.reasons.map((r: { code: string }) => r.code),
    ['booked'],
  );
  assert.deepEqual(details.reasons[0].booking_ids, [taken]);
  assert.ok(!res.raw.includes('grace') && !res.raw.includes('Grace'), 'another invitee is never named');
  assert.deepEqual(details.next_slots, [
    { start: '2026-12-01T11:00:00.000Z', end: '2026-12-01T11:30:00.000Z', invitee_start: '2026-12-01T16:30:00+05:30' },
    { start: '2026-12-01T11:30:00.000Z', end: '2026-12-01T12:00:00.000Z', invitee_start: '2026-12-01T17:00:00+05:30' },
    { start: '2026-12-01T12:00:00.000Z', end: '2026-12-01T12:30:00.000Z', invitee_start: '2026-12-01T17:30:00+05:30' },
  ]);

  // Several reasons at once: past, and outside the hours; off the grid of starts.
  const past = await book(harness, ws, eventType, '2026-11-29T03:10:00Z');
  assert.equal(past.status, 409, past.raw);
  assert.deepEqual(
    past.body.error.details.reasons.map((r: { code: string }) => r.code),
    ['past', 'outside_hours', 'off_interval'],
  );
  assert.equal(past.body.error.details.next_slots[0].start, '2026-11-30T09:00:00.000Z', 'the next slots start from now');

  const unknown = await book(harness, ws, '00000000-0000-4000-8000-000000000000', '2026-12-01T10:00:00Z');
  assert.equal(unknown.status, 404, unknown.raw);
  const inactive = await ws.addEventType({ active: false });
  const closed = await book(harness, ws, inactive, '2026-12-01T10:00:00Z');
  assert.equal(closed.status, 409, closed.raw);
  assert.equal(closed.body.error.details.reason, 'event_type_inactive');
  assert.equal(
    (await harness.database.db.selectFrom('bookings').select('id').where('workspace_id', '=', ws.id).execute()).length,
    1,
    'nothing was written',
  );
  assert.deepEqual(await harness.eventTypes(ws.id), []);
});

test('create_booking: 20 simultaneous bookings of one slot give one booking and 19 409s; of overlapping slots, one wins', async (t) => {
  const harness = await startTestApp(t, { clock });
  const ws = await unmaskedWorkspace(harness);
  const eventType = await ws.addEventType();
  const attempts = await Promise.all(
    Array.from({ length: 20 }, (_, i) => book(harness, ws, eventType, '2026-12-03T14:00:00Z', { invitee_email: `racer${i}@example.com` })),
  );
  const statuses = attempts.map((res) => res.status).sort();
  assert.deepEqual(statuses, [201, ...Array(19).fill(409)], attempts.map((res) => res.raw).join('\n'));
  for (const lost of attempts.filter((res) => res.status === 409)) {
    assert.equal(lost.body.error.code, 'conflict');
    assert.ok(['booked'].includes(lost.body.error.details.reasons[0].code), lost.raw);
    assert.equal(lost.body.error.details.next_slots[0].start, '2026-12-03T14:30:00.000Z');
  }
  const db = harness.database.db;
  const rows = await db.selectFrom('bookings').select('id').where('workspace_id', '=', ws.id).where('status', '=', 'confirmed').execute();
  assert.equal(rows.length, 1);
  const outcomes = await db.selectFrom('outcomes').select('id').where('workspace_id', '=', ws.id).execute();
  assert.equal(outcomes.length, 1, 'the losers wrote no ledger entry');
  const leads = await db.selectFrom('leads').select('id').where('workspace_id', '=', ws.id).execute();
  assert.equal(leads.length, 1, 'nor any lead');

  // 30-minute calls every 15 minutes: 10:00 and 10:15 overlap, so only one of them can be booked.
  const quarterly = await ws.addEventType({ slot_interval_minutes: 15 });
  const overlapping = await Promise.all(
    ['2026-12-04T10:00:00Z', '2026-12-04T10:15:00Z', '2026-12-04T10:00:00Z', '2026-12-04T10:15:00Z'].map((start, i) =>
      book(harness, ws, quarterly, start, { invitee_email: `overlap${i}@example.com` }),
    ),
  );
  assert.deepEqual(overlapping.map((res) => res.status).sort(), [201, 409, 409, 409]);
  const kept = await db
    .selectFrom('bookings')
    .select(['starts_at', 'ends_at'])
    .where('workspace_id', '=', ws.id)
    .where('event_type_id', '=', quarterly)
    .execute();
  assert.equal(kept.length, 1);
});

test('list_bookings and get_booking: scopes, filters, cursors, masking; plans and scopes', async (t) => {
  const harness = await startTestApp(t, { clock });
  const ws = await harness.workspace('pro');
  const eventType = await ws.addEventType();
  const other = await ws.addEventType({ name: 'Other' });
  const at = (iso: string) => ({ starts_at: new Date(iso), ends_at: new Date(new Date(iso).getTime() + 30 * 60_000) });
  const past1 = await ws.addBooking({ event_type_id: eventType, ...at('2026-11-20T10:00:00Z') });
  const past2 = await ws.addBooking({ event_type_id: eventType, ...at('2026-11-27T10:00:00Z') });
  // Started before now but not over: still upcoming.
  const running = await ws.addBooking({ event_type_id: eventType, ...at('2026-11-30T07:45:00Z') });
  const next1 = await ws.addBooking({ event_type_id: eventType, ...at('2026-12-01T10:00:00Z') });
  const next2 = await ws.addBooking({ event_type_id: other, ...at('2026-12-02T10:00:00Z') });
  const next3 = await ws.addBooking({ event_type_id: eventType, ...at('2026-12-03T10:00:00Z') });
  const canceled = await ws.addBooking({
    event_type_id: eventType,
    ...at('2026-12-01T10:00:00Z'),
    status: 'canceled',
    canceled_at: NOW,
    canceled_by: 'workspace',
  });
  const list = (query: string, token = ws.key) => harness.request('GET', `/v1/bookings${query}`, { token });
  const ids = (res: { body: { bookings: { booking_id: string }[] } }) => res.body.bookings.map((b) => b.booking_id);

  const upcoming = await list('');
  assert.equal(upcoming.status, 200, upcoming.raw);
  assert.deepEqual(ids(upcoming), [running, next1, next2, next3], 'soonest first, confirmed only');
  assert.equal(upcoming.body.pagination.total, 4);
  const first = upcoming.body.bookings[1];
  assert.match(first.invitee_email, /^i\*\*\*@e\*\*\*\.com$/, 'masked while the workspace masks');
  assert.equal(first.invitee_name, 'P***');
  assert.equal(first.invitee_start, '2026-12-01T11:00:00+01:00');

  assert.deepEqual(ids(await list('?scope=past')), [past2, past1], 'most recent first');
  assert.deepEqual(ids(await list(`?scope=all&event_type_id=${other}`)), [next2]);
  assert.deepEqual(ids(await list('?scope=upcoming&status=canceled')), [canceled]);
  assert.deepEqual(ids(await list('?scope=all&status=canceled')), [canceled]);

  const page1 = await list('?limit=2');
  assert.deepEqual(ids(page1), [running, next1]);
  assert.equal(page1.body.pagination.has_more, true);
  const page2 = await list(`?limit=2&cursor=${page1.body.pagination.next_cursor}`);
  assert.deepEqual(ids(page2), [next2, next3]);
  assert.equal(page2.body.pagination.next_cursor, null);
  const wrongFilters = await list(`?limit=2&scope=past&cursor=${page1.body.pagination.next_cursor}`);
  assert.equal(wrongFilters.status, 400, 'a cursor is bound to its filters');
  assert.equal((await list('?scope=soon')).status, 400);

  const one = await harness.request('GET', `/v1/bookings/${next1}`, { token: ws.key });
  assert.equal(one.status, 200, one.raw);
  assert.deepEqual(
    [one.body.booking_id, one.body.status, one.body.value, one.body.event_type.name],
    [next1, 'confirmed', null, 'Intro call'],
  );
  const stranger = await harness.workspace('pro');
  assert.equal((await harness.request('GET', `/v1/bookings/${next1}`, { token: stranger.key })).status, 404);

  const free = await harness.workspace('free');
  const limited = await list('', free.key);
  assert.equal(limited.status, 403);
  assert.deepEqual([limited.body.error.code, limited.body.error.details.entitlement], ['plan_limit', 'scheduling']);
  const reader = await ws.mintKey({ scopes: ['leads:read'] });
  assert.equal((await list('', reader.key)).status, 200);
  const refused = await book(harness, { ...ws, key: reader.key }, eventType, '2026-12-01T11:00:00Z');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.details.required_scope, 'leads:write');
});

test('cancel_booking: the call is canceled once, its ledger entry canceled, the slot offered again', async (t) => {
  const harness = await startTestApp(t, { clock });
  const ws = await unmaskedWorkspace(harness);
  const eventType = await ws.addEventType({ value_amount: 5000, value_currency: 'USD' });
  const made = await book(harness, ws, eventType, '2026-12-01T10:00:00Z');
  assert.equal(made.status, 201, made.raw);
  const id = made.body.booking_id;

  const res = await post(harness, ws, `/bookings/${id}/cancel`, { reason: 'Asked by email.' });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(
    [res.body.status, res.body.canceled_at, res.body.canceled_by, res.body.cancel_reason],
    ['canceled', NOW.toISOString(), 'workspace', 'Asked by email.'],
  );
  const db = harness.database.db;
  const outcome = await db.selectFrom('outcomes').select('status').where('id', '=', made.body.outcome_id).executeTakeFirstOrThrow();
  assert.equal(outcome.status, 'canceled');
  const steps = await db
    .selectFrom('lead_activities')
    .select('data')
    .where('lead_id', '=', made.body.lead_id)
    .where('kind', '=', 'booking')
    .execute();
  assert.deepEqual(steps.map((step) => step.data.action).sort(), ['booked', 'canceled']);
  assert.equal((await harness.eventTypes(ws.id)).at(-1), 'booking.canceled');

  const twice = await post(harness, ws, `/bookings/${id}/cancel`, {});
  assert.equal(twice.status, 409, twice.raw);
  assert.equal(twice.body.error.details.reason, 'already_canceled');
  assert.equal((await harness.eventTypes(ws.id)).filter((type) => type === 'booking.canceled').length, 1);

  const again = await book(harness, ws, eventType, '2026-12-01T10:00:00Z', { invitee_email: 'next@example.com' });
  assert.equal(again.status, 201, 'the canceled call no longer holds its slot');
  assert.equal((await post(harness, ws, '/bookings/00000000-0000-4000-8000-000000000000/cancel', {})).status, 404);
});

test('reschedule_booking: the id stays, the old time is freed, a taken or closed time is 409', async (t) => {
  const harness = await startTestApp(t, { clock });
  const ws = await unmaskedWorkspace(harness);
  const eventType = await ws.addEventType({ slot_interval_minutes: 15 });
  const made = await book(harness, ws, eventType, '2026-12-01T10:00:00Z');
  const id = made.body.booking_id;
  const blocker = await book(harness, ws, eventType, '2026-12-01T13:00:00Z', { invitee_email: 'blocker@example.com' });
  assert.equal(blocker.status, 201, blocker.raw);

  // Its own time does not block the move: 10:15 overlaps the call's current 10:00–10:30.
  const moved = await post(harness, ws, `/bookings/${id}/reschedule`, { start: '2026-12-01T10:15:00+00:00' });
  assert.equal(moved.status, 200, moved.raw);
  assert.deepEqual(
    [moved.body.booking_id, moved.body.start, moved.body.end, moved.body.rescheduled_at, moved.body.status],
    [id, '2026-12-01T10:15:00.000Z', '2026-12-01T10:45:00.000Z', NOW.toISOString(), 'confirmed'],
  );
  assert.equal(moved.body.outcome_id, made.body.outcome_id);
  const db = harness.database.db;
  const event = await db
    .selectFrom('events')
    .select('data')
    .where('workspace_id', '=', ws.id)
    .where('type', '=', 'booking.rescheduled')
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    [(event.data as { previous_start: string }).previous_start, (event.data as { booking: { start: string } }).booking.start],
    ['2026-12-01T10:00:00.000Z', '2026-12-01T10:15:00.000Z'],
  );
  const row = await db.selectFrom('bookings').select('sequence').where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.sequence, 1);

  // 09:45–10:15 overlapped the call's old time, and only touches its new one.
  const freed = await book(harness, ws, eventType, '2026-12-01T09:45:00Z', { invitee_email: 'other@example.com' });
  assert.equal(freed.status, 201, 'the old time is free again');

  const taken = await post(harness, ws, `/bookings/${id}/reschedule`, { start: '2026-12-01T13:00:00Z' });
  assert.equal(taken.status, 409, taken.raw);
  assert.deepEqual(
    taken.body.error.details.reasons.map((r: { code: string }) => r.code),
    ['booked'],
  );
  assert.deepEqual(taken.body.error.details.reasons[0].booking_ids, [blocker.body.booking_id]);
  assert.equal(taken.body.error.details.next_slots[0].start, '2026-12-01T13:30:00.000Z');
  const weekend = await post(harness, ws, `/bookings/${id}/reschedule`, { start: '2026-12-05T10:00:00Z' });
  assert.equal(weekend.status, 409);
  assert.deepEqual(
    weekend.body.error.details.reasons.map((r: { code: string }) => r.code),
    ['outside_hours'],
  );
  const same = await post(harness, ws, `/bookings/${id}/reschedule`, { start: '2026-12-01T10:15:00Z' });
  assert.equal(same.status, 200, 'the same start again changes nothing');
  assert.equal((await harness.eventTypes(ws.id)).filter((type) => type === 'booking.rescheduled').length, 1);

  assert.equal((await post(harness, ws, `/bookings/${id}/cancel`, {})).status, 200);
  const canceled = await post(harness, ws, `/bookings/${id}/reschedule`, { start: '2026-12-02T10:00:00Z' });
  assert.equal(canceled.status, 409);
  assert.equal(canceled.body.error.details.reason, 'booking_canceled');
});

test('the invitee’s links: the calendar file, and the cancel page that cancels once; a wrong token is 404', async (t) => {
  const harness = await startTestApp(t, { clock });
  const ws = await unmaskedWorkspace(harness);
  const eventType = await ws.addEventType({ name: 'Demo, with Q&A; <live>', location: 'https://meet.example.com/x' });
  const made = await book(harness, ws, eventType, '2026-12-01T10:00:00Z', { invitee_timezone: 'America/New_York' });
  assert.equal(made.status, 201, made.raw);
  const id = made.body.booking_id;
  const path = (url: string) => url.replace('http://localhost:3000', '');
  const token = new URL(made.body.cancel_url).searchParams.get('token') as string;

  const ics = await harness.request('GET', path(made.body.calendar_file_url));
  assert.equal(ics.status, 200, ics.raw);
  assert.equal(ics.headers['content-type'], 'text/calendar; charset=utf-8');
  const unfolded = ics.raw.replace(/\r\n /g, '');
  assert.ok(
    ics.raw.split('\r\n').every((line) => Buffer.byteLength(line) <= 75),
    'lines folded at 75 octets',
  );
  for (const line of [
    'BEGIN:VCALENDAR',
    'METHOD:PUBLISH',
    `UID:${id}@localhost:3000`,
    'SEQUENCE:0',
    'DTSTART:20261201T100000Z',
    'DTEND:20261201T103000Z',
    'SUMMARY:Demo\\, with Q&A\\; <live>',
    'LOCATION:https://meet.example.com/x',
    `DESCRIPTION:To cancel this call: ${made.body.cancel_url}`,
    'STATUS:CONFIRMED',
    'END:VCALENDAR',
  ]) {
    assert.ok(unfolded.split('\r\n').includes(line), `${line} in\n${unfolded}`);
  }
  for (const wrong of [
    `/bookings/${id}/invite.ics`,
    `/bookings/${id}/invite.ics?token=nope`,
    `/bookings/not-an-id/invite.ics?token=${token}`,
  ]) {
    assert.equal((await harness.request('GET', wrong)).status, 404, wrong);
  }

  const page = await harness.request('GET', path(made.body.cancel_url));
  assert.equal(page.status, 200, page.raw);
  assert.match(page.headers['content-type'] as string, /^text\/html/);
  assert.equal(page.headers['referrer-policy'], 'no-referrer');
  assert.match(page.headers['content-security-policy'] as string, /form-action 'self'/);
  assert.ok(page.raw.includes('Demo, with Q&#38;A; &#60;live&#62;'), 'escaped');
  assert.match(page.raw, /Tuesday,? 1 December 2026, 05:00 – 05:30 \(America\/New_York\)/, 'in the invitee’s zone');
  assert.ok(page.raw.includes('<button type="submit">Cancel the call</button>'));
  assert.equal((await harness.request('GET', `/bookings/${id}/cancel?token=${token}x`)).status, 404);

  const form = (body: string) =>
    harness.app.inject({
      method: 'POST',
      url: `/bookings/${id}/cancel`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
  assert.equal((await form('token=wrong')).statusCode, 404);
  const canceled = await form(`token=${encodeURIComponent(token)}&reason=${encodeURIComponent('Something came up')}`);
  assert.equal(canceled.statusCode, 200, canceled.body);
  assert.ok(canceled.body.includes('Your call is canceled'));
  const row = await harness.database.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.deepEqual([row.status, row.canceled_by, row.cancel_reason, row.sequence], ['canceled', 'invitee', 'Something came up', 1]);
  assert.equal((await harness.eventTypes(ws.id)).at(-1), 'booking.canceled');

  const twice = await form(`token=${encodeURIComponent(token)}`);
  assert.equal(twice.statusCode, 200);
  assert.ok(twice.body.includes('This call was already canceled'));
  const after = await harness.request('GET', path(made.body.cancel_url));
  assert.ok(after.raw.includes('This call was already canceled') && !after.raw.includes('<form'));
  const canceledIcs = (await harness.request('GET', path(made.body.calendar_file_url))).raw.replace(/\r\n /g, '');
  assert.ok(canceledIcs.includes('STATUS:CANCELLED\r\n') && canceledIcs.includes('SEQUENCE:1\r\n'), canceledIcs);
});

test('list_bookings by an event type not of the workspace is not_found, not an empty list', async (t) => {
  const harness = await startTestApp(t, { clock });
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const theirs = await other.addEventType({ name: 'Their call' });
  await other.addBooking({ event_type_id: theirs });
  for (const eventTypeId of [theirs, randomUUID()]) {
    const res = await harness.request('GET', `/v1/bookings?scope=all&event_type_id=${eventTypeId}`, { token: ws.key });
    assert.equal(res.status, 404, res.raw);
    assert.deepEqual(
      [res.body.error.code, res.body.error.message],
      ['not_found', `No event type with id ${eventTypeId} in this workspace.`],
    );
    assert.ok(!res.raw.includes('Their call'));
  }
  const mine = await harness.request('GET', `/v1/bookings?scope=all&event_type_id=${await ws.addEventType()}`, { token: ws.key });
  assert.equal(mine.status, 200, mine.raw);
  assert.deepEqual(mine.body.bookings, []);
});
