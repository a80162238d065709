/**
 * The availability explainer (issue 28): a day of an event type, every start time offered or not with
 * the reasons of get_scheduling_availability in words, the booking in the way linked and its invitee
 * masked as the API masks; a chart of the reasons with its numbers. Every role reads it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ROLES, schedulingSetUp, weekdayAhead } from './test-setup.ts';

test('the explainer lists every start time of the day with why it is or is not offered, for every role', async (t) => {
  const { ws, people } = await schedulingSetUp(t);
  const eventTypeId = await ws.addEventType({ name: 'Intro call' });
  const day = weekdayAhead();
  const bookingId = await ws.addBooking({
    event_type_id: eventTypeId,
    starts_at: new Date(`${day}T10:00:00Z`),
    ends_at: new Date(`${day}T10:30:00Z`),
  });
  for (const role of ROLES) {
    const page = await people[role].get(`/app/scheduling/availability?event_type=${eventTypeId}&date=${day}`);
    assert.equal(page.statusCode, 200, `${role}: ${page.body.slice(0, 300)}`);
    const body = page.body;
    // 48 half-hour starts: 09:00–16:30 minus the booked 10:00 are offered (15).
    assert.match(body, /<strong>15 of 48<\/strong> start times are offered/);
    assert.match(body, /<li class="sched-offered"><span class="sched-time">09:00–09:30<\/span>/);
    assert.match(
      body,
      /<li class="sched-blocked"><span class="sched-time">00:00–08:30<\/span><span class="sched-state">Not offered · 18 start times/,
    );
    assert.match(body, /Outside hours<\/span> [^<]*Monday|Outside hours<\/span> [^<]*day/);
    assert.match(body, new RegExp(`<span class="sched-code">Booked</span> [^<]*${bookingId}`), 'the booked start says which booking');
    assert.match(body, new RegExp(`href="/app/scheduling/bookings/${bookingId}">Intro call with P\\*\\*\\*</a>`), 'the invitee masked');
    assert.doesNotMatch(body, /Private Invitee/);
    assert.match(body, /<figure class="chart"/, 'the reasons chart');
    assert.match(body, /<table[^>]*>.*Outside hours/s, 'its numbers in a table');
    assert.match(body, /<select id="explain-type" name="event_type"><option value="[^"]+" selected>Intro call<\/option>/);
  }
});

test('without a choice the first active event type and today are explained; an unknown id is said so', async (t) => {
  const { ws, people } = await schedulingSetUp(t);
  await ws.addEventType({ name: 'Retired', active: false });
  await ws.addEventType({ name: 'Office hours' });
  const page = await people.viewer.get('/app/scheduling/availability');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /<option value="[^"]+" selected>Office hours<\/option>/);
  assert.match(page.body, new RegExp(`name="date" value="${new Date().toISOString().slice(0, 10)}"`));
  const unknown = await people.viewer.get('/app/scheduling/availability?event_type=00000000-0000-4000-8000-000000000000&date=2030-01-07');
  assert.equal(unknown.statusCode, 404);
  assert.match(unknown.body, /role="alert">No event type with id/);
});
