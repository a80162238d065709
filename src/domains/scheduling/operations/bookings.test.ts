/**
 * The booking operations over HTTP (and MCP): booking an offered slot (lead, ledger entry, events,
 * times in the invitee's zone), the 409 with every reason and the next slots, concurrent bookings of
 * one slot and of overlapping slots, lists by scope with cursors, masking, cancel, reschedule, plans
 * and scopes, and the invitee's calendar file and cancel page.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';

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
