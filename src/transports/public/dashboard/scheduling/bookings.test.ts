/**
 * Bookings in the dashboard (issue 28): the upcoming and past lists with list_bookings' filters, a
 * booking's page for every role; members cancel (with a reason) and reschedule (to a time the event
 * type offers), checked through the API; a reason too long is shown on its field; a taken time is said
 * so with the next open ones; no CSRF token or a viewer's role changes nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csrfOf } from '../../../../../test/helpers/people.ts';
import { ROLES, schedulingSetUp, weekdayAhead } from './test-setup.ts';

async function withBookings(t: Parameters<typeof schedulingSetUp>[0]) {
  const setUp = await schedulingSetUp(t);
  const { ws } = setUp;
  const eventTypeId = await ws.addEventType({ name: 'Intro call' });
  const day = weekdayAhead();
  const at = (time: string) => new Date(`${day}T${time}:00Z`);
  const upcoming = await ws.addBooking({ event_type_id: eventTypeId, starts_at: at('10:00'), ends_at: at('10:30') });
  const other = await ws.addBooking({
    event_type_id: eventTypeId,
    starts_at: at('14:00'),
    ends_at: at('14:30'),
    invitee_name: 'Other Person',
  });
  const past = await ws.addBooking({
    event_type_id: eventTypeId,
    starts_at: new Date(Date.now() - 3 * 86_400_000),
    ends_at: new Date(Date.now() - 3 * 86_400_000 + 1_800_000),
    invitee_name: 'Earlier Person',
  });
  return { ...setUp, eventTypeId, day, upcoming, other, past };
}

test('the bookings list, upcoming and past, with filters, for every role; members are offered cancel and reschedule', async (t) => {
  const { people, upcoming, past, eventTypeId } = await withBookings(t);
  for (const role of ROLES) {
    const list = await people[role].get('/app/scheduling/bookings');
    assert.equal(list.statusCode, 200, role);
    assert.match(list.body, new RegExp(`href="/app/scheduling/bookings/${upcoming}"`));
    assert.doesNotMatch(list.body, new RegExp(past), 'upcoming only');
    assert.match(list.body, /P\*\*\*/, 'the invitee masked as the API masks');
    assert.doesNotMatch(list.body, /Private Invitee/);
    assert.equal(list.body.includes(`/app/scheduling/bookings/${upcoming}#cancel`), role !== 'viewer', role);
    const earlier = await people[role].get('/app/scheduling/bookings?scope=past');
    assert.match(earlier.body, new RegExp(`href="/app/scheduling/bookings/${past}"`));
    assert.doesNotMatch(earlier.body, new RegExp(upcoming));
    const page = await people[role].get(`/app/scheduling/bookings/${upcoming}`);
    assert.equal(page.statusCode, 200, role);
    assert.equal(page.body.includes('Cancel booking'), role !== 'viewer', role);
    assert.equal(page.body.includes('name="start"'), role !== 'viewer', role);
  }
  const filtered = await people.viewer.get(`/app/scheduling/bookings?scope=upcoming&status=canceled&event_type_id=${eventTypeId}`);
  assert.match(filtered.body, /No upcoming calls match/);
  assert.match(filtered.body, /<option value="canceled" selected>/);
  const paged = await people.viewer.get('/app/scheduling/bookings?scope=all');
  assert.match(paged.body, /3 calls/);
});

test('a member cancels a call with a reason; a reason too long is shown on its field, and nothing changes', async (t) => {
  const { people, api, upcoming } = await withBookings(t);
  const member = people.member;
  const page = await member.get(`/app/scheduling/bookings/${upcoming}`);
  const csrf = csrfOf(page.body);
  const tooLong = await member.post(`/app/scheduling/bookings/${upcoming}/cancel`, { csrf, reason: 'x'.repeat(501) });
  assert.equal(tooLong.statusCode, 400);
  assert.match(tooLong.body, /<textarea id="f-reason" name="reason" maxlength="500" aria-invalid="true"[^>]*>x{501}<\/textarea>/);
  assert.match(tooLong.body, /<span class="field-error" id="f-reason-error">/);
  assert.equal((await api(`/bookings/${upcoming}`)).body.status, 'confirmed');

  const canceled = await member.post(`/app/scheduling/bookings/${upcoming}/cancel`, {
    csrf,
    reason: 'The invitee wrote to move it to next month.',
  });
  assert.equal(canceled.statusCode, 303);
  assert.equal(canceled.headers.location, '/app/scheduling/bookings?done=canceled');
  const booking = (await api(`/bookings/${upcoming}`)).body;
  assert.deepEqual(
    [booking.status, booking.canceled_by, booking.cancel_reason],
    ['canceled', 'workspace', 'The invitee wrote to move it to next month.'],
  );
  const after = await member.get(`/app/scheduling/bookings/${upcoming}`);
  assert.doesNotMatch(after.body, /Cancel booking/, 'a canceled call offers no writes');
  assert.match(after.body, /by the workspace: “The invitee wrote to move it to next month.”/);
});

test('a member reschedules to an offered time; a taken time is refused with the next open ones', async (t) => {
  const { people, api, upcoming, day } = await withBookings(t);
  const member = people.member;
  const page = await member.get(`/app/scheduling/bookings/${upcoming}?from=${day}`);
  assert.match(page.body, new RegExp(`name="start" id="slot-[0-9]+" value="${day}T11:00:00.000Z"`), 'offered times to pick');
  assert.doesNotMatch(page.body, new RegExp(`value="${day}T14:00:00.000Z"`), 'a taken time is not offered');
  const csrf = csrfOf(page.body);

  const taken = await member.post(`/app/scheduling/bookings/${upcoming}/reschedule`, { csrf, start: `${day}T14:00:00.000Z` });
  assert.equal(taken.statusCode, 409);
  assert.match(taken.body, /That time is no longer open\./);
  assert.match(taken.body, /Next open: /);
  const none = await member.post(`/app/scheduling/bookings/${upcoming}/reschedule`, { csrf });
  assert.equal(none.statusCode, 400);
  assert.match(none.body, /Pick a new time first/);
  assert.equal((await api(`/bookings/${upcoming}`)).body.start, `${day}T10:00:00.000Z`);

  const moved = await member.post(`/app/scheduling/bookings/${upcoming}/reschedule`, { csrf, start: `${day}T11:00:00.000Z` });
  assert.equal(moved.statusCode, 303);
  const booking = (await api(`/bookings/${upcoming}`)).body;
  assert.equal(booking.start, `${day}T11:00:00.000Z`);
  assert.ok(booking.rescheduled_at);
  assert.match((await member.get(String(moved.headers.location))).body, /The call is moved/);
});

test('no cancel or reschedule without the CSRF token, nor by a viewer', async (t) => {
  const { people, api, upcoming, day } = await withBookings(t);
  const forged = await people.owner.post(`/app/scheduling/bookings/${upcoming}/cancel`, { csrf: 'forged', reason: 'no' });
  assert.equal(forged.statusCode, 403);
  const forgedMove = await people.owner.post(`/app/scheduling/bookings/${upcoming}/reschedule`, {
    csrf: 'forged',
    start: `${day}T11:00:00.000Z`,
  });
  assert.equal(forgedMove.statusCode, 403);
  const viewer = people.viewer;
  const csrf = csrfOf((await viewer.get('/app')).body);
  assert.equal((await viewer.post(`/app/scheduling/bookings/${upcoming}/cancel`, { csrf })).statusCode, 403);
  assert.equal(
    (await viewer.post(`/app/scheduling/bookings/${upcoming}/reschedule`, { csrf, start: `${day}T11:00:00.000Z` })).statusCode,
    403,
  );
  const booking = (await api(`/bookings/${upcoming}`)).body;
  assert.deepEqual([booking.status, booking.start], ['confirmed', `${day}T10:00:00.000Z`]);
});
