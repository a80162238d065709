/**
 * The public booking page over HTTP (inject): the page of a bookable event type (escaped, its
 * headers, what it tells and what it keeps for the confirmation), the friendly 404 for everything
 * else; the slots endpoint, offered slots only, bounded to 31 days; booking through it (the booking,
 * its lead and ledger entry, where it came from), the 409 with the next slots and nothing private,
 * every problem of a bad submission named at once, and the per-address limit.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp, type TestApp, type TestWorkspace } from '../../../../test/helpers/app.ts';

/** A Monday, 08:00 UTC: the default event type (Monday–Friday 09:00–17:00 UTC, 30 minutes) opens in an hour. */
const NOW = new Date('2030-01-07T08:00:00.000Z');
const at = (time: string) => `2030-01-07T${time}:00.000Z`;

async function bookingApp(t: Parameters<typeof startTestApp>[0]) {
  return startTestApp(t, { clock: () => NOW });
}

/** The page's data block, parsed. */
function pageData(html: string): Record<string, unknown> {
  const match = /<script type="application\/json" id="cp-booking">([^<]*)<\/script>/.exec(html);
  assert.ok(match, 'the page has its data block');
  return JSON.parse(match[1] as string);
}

function book(harness: TestApp, eventTypeId: string, fields: Record<string, unknown> = {}) {
  return harness.request('POST', `/book/${eventTypeId}`, {
    body: {
      start: at('10:00'),
      name: 'Ada Lovelace',
      email: `ada-${randomUUID().slice(0, 8)}@example.com`,
      timezone: 'Europe/Berlin',
      ...fields,
    },
  });
}

async function slotsOf(harness: TestApp, eventTypeId: string, query = `from=${at('08:00')}&to=${at('23:59')}`) {
  return harness.request('GET', `/book/${eventTypeId}/slots?${query}`);
}

test('the booking page shows the event type, escaped, with its length and kind of place, and keeps where the viewer came from', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Tour' });
  const eventTypeId = await ws.addEventType({
    name: `Demo <b>"call"</b> & more`,
    duration_minutes: 90,
    location: 'https://meet.example.com/secret-room',
  });
  const res = await harness.request('GET', `/book/${eventTypeId}?video=${videoId}&route=not-an-id`);
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.headers['cache-control'], 'no-store');
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /default-src 'none'; script-src 'self'; style-src 'sha256-[^']+'/);
  assert.match(csp, /frame-ancestors 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.match(res.raw, /<title>Book: Demo &#60;b&#62;&#34;call&#34;&#60;\/b&#62; &#38; more<\/title>/);
  assert.match(res.raw, /<h1>Demo &#60;b&#62;&#34;call&#34;&#60;\/b&#62; &#38; more<\/h1>/);
  assert.match(res.raw, /1 hour 30 minutes · Online meeting \(the link comes with your confirmation\)/);
  assert.doesNotMatch(res.raw, /secret-room/, 'the meeting link comes only with a booking');
  assert.match(res.raw, /<main>/);
  assert.match(res.raw, /<label>Name<input name="name"[^>]*autocomplete="name"[^>]*required/);
  assert.match(res.raw, /<label>Email<input name="email" type="email"/);
  assert.match(res.raw, /<label for="cp-zone">Times shown in<\/label><select id="cp-zone">/);
  assert.match(res.raw, /<script src="\/booking-page.js" defer><\/script>/);
  assert.deepEqual(pageData(res.raw), {
    event_type_id: eventTypeId,
    name: `Demo <b>"call"</b> & more`,
    duration_minutes: 90,
    video_id: videoId,
    route_id: null,
  });

  const script = await harness.request('GET', '/booking-page.js');
  assert.equal(script.status, 200);
  assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.match(script.raw, /Intl\.supportedValuesOf\('timeZone'\)/);
});

test('the page tells a phone call and a place apart, and says nothing of a type without a location', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const page = async (location: string | null) =>
    (await harness.request('GET', `/book/${await ws.addEventType({ location, duration_minutes: 45 })}`)).raw;
  assert.match(await page('+1 (555) 010-0000'), /45 minutes · Phone call</);
  assert.match(await page('Main Street 1, Springfield'), /45 minutes · In person \(the address comes with your confirmation\)</);
  assert.match(await page(null), /<p class="cp-facts">45 minutes<\/p>/);
});

test('unknown, malformed, inactive and unentitled event types get the friendly 404 page, and their endpoints a JSON 404', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const free = await harness.workspace('free');
  const other = await harness.workspace();
  const inactive = await ws.addEventType({ active: false });
  const unentitled = await free.addEventType();
  const ids = [randomUUID(), 'not-an-id', `${randomUUID()}x`, 'a'.repeat(500), inactive, unentitled];
  for (const id of ids) {
    const page = await harness.request('GET', `/book/${id}`);
    assert.equal(page.status, 404, id);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.raw, /<h1>This booking page is not available<\/h1>/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
  }
  for (const id of [randomUUID(), inactive, unentitled]) {
    const slots = await slotsOf(harness, id);
    assert.equal(slots.status, 404, slots.raw);
    assert.equal(slots.body.error.code, 'not_found');
    const booking = await book(harness, id);
    assert.equal(booking.status, 404, booking.raw);
    assert.equal(booking.body.error.code, 'not_found');
  }
  // Another workspace's active type is public like any other: the page needs no workspace.
  assert.equal((await harness.request('GET', `/book/${await other.addEventType()}`)).status, 200);
});

test('the slots endpoint lists offered slots only, without reasons or other bookings, in a window of at most 31 days', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType();
  await ws.addBooking({ event_type_id: eventTypeId, starts_at: new Date(at('10:00')), ends_at: new Date(at('10:30')) });

  const day = await slotsOf(harness, eventTypeId);
  assert.equal(day.status, 200, day.raw);
  assert.equal(day.headers['cache-control'], 'no-store');
  assert.deepEqual(Object.keys(day.body).sort(), ['event_type_id', 'from', 'slots', 'to']);
  const starts = day.body.slots.map((slot: { start: string }) => slot.start);
  const expected = [
    '09:00',
    '09:30',
    '10:30',
    '11:00',
    '11:30',
    '12:00',
    '12:30',
    '13:00',
    '13:30',
    '14:00',
    '14:30',
    '15:00',
    '15:30',
    '16:00',
    '16:30',
  ];
  assert.deepEqual(starts, expected.map(at), 'every working slot but the booked one; 08:00 and 08:30 are outside hours');
  assert.deepEqual(day.body.slots[0], { start: at('09:00'), end: at('09:30') });
  assert.doesNotMatch(day.raw, /reason|invitee|booking_id|Private/);

  const byDefault = await harness.request('GET', `/book/${eventTypeId}/slots`);
  assert.equal(byDefault.status, 200);
  assert.equal(byDefault.body.from, NOW.toISOString());
  assert.equal(byDefault.body.to, '2030-01-14T08:00:00.000Z', 'a week from now');
  assert.equal(byDefault.body.slots.length, 15 + 4 * 16, 'Monday from 09:00 with one booked, then four working days');

  const tooLong = await slotsOf(harness, eventTypeId, `from=${at('08:00')}&to=2030-02-08T08:00:01.000Z`);
  assert.equal(tooLong.status, 400, tooLong.raw);
  assert.deepEqual(tooLong.body.error.details.errors, [{ field: 'to', problem: 'must be at most 31 days after from' }]);
  const longest = await slotsOf(harness, eventTypeId, `from=${at('08:00')}&to=2030-02-07T08:00:00.000Z`);
  assert.equal(longest.status, 200);
  const bad = await slotsOf(harness, eventTypeId, 'from=yesterday&to=2030-02-31T00:00:00Z&extra=1');
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.error.details.errors.map((problem: { field: string }) => problem.field).sort(), ['extra', 'from', 'to']);
});

test('booking a slot: the booking with its invitee links, the lead and ledger entry, and the video it came from', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const videoId = await ws.addVideo({ title: 'Tour' });
  const eventTypeId = await ws.addEventType({ name: 'Intro call', location: 'https://meet.example.com/room' });
  const viewerId = `viewer_${randomUUID().replaceAll('-', '')}`;

  const res = await book(harness, eventTypeId, {
    email: ' Grace@Example.com ',
    name: 'Grace Hopper',
    phone: '+1 555 010 0000',
    video_id: videoId,
    viewer_id: viewerId,
  });
  assert.equal(res.status, 201, res.raw);
  assert.equal(res.headers['cache-control'], 'no-store');
  const bookingId = res.body.booking_id;
  assert.deepEqual(
    { ...res.body, calendar_file_url: undefined, cancel_url: undefined },
    {
      booking_id: bookingId,
      status: 'confirmed',
      event_type: { event_type_id: eventTypeId, name: 'Intro call', duration_minutes: 30 },
      location: 'https://meet.example.com/room',
      start: at('10:00'),
      end: at('10:30'),
      timezone: 'Europe/Berlin',
      invitee_start: '2030-01-07T11:00:00+01:00',
      invitee_end: '2030-01-07T11:30:00+01:00',
      calendar_file_url: undefined,
      cancel_url: undefined,
    },
  );
  assert.match(
    res.body.calendar_file_url,
    new RegExp(`^http://localhost:3000/bookings/${bookingId}/invite\\.ics\\?token=[A-Za-z0-9_-]{43}$`),
  );
  assert.match(res.body.cancel_url, new RegExp(`^http://localhost:3000/bookings/${bookingId}/cancel\\?token=[A-Za-z0-9_-]{43}$`));

  const row = await harness.database.db.selectFrom('bookings').selectAll().where('id', '=', bookingId).executeTakeFirstOrThrow();
  assert.equal(row.workspace_id, ws.id);
  assert.equal(row.starts_at.toISOString(), at('10:00'));
  assert.equal(row.invitee_email, 'Grace@Example.com');
  assert.equal(row.invitee_name, 'Grace Hopper');
  assert.equal(row.invitee_timezone, 'Europe/Berlin');
  assert.equal(row.video_id, videoId);
  assert.ok(row.lead_id && row.outcome_id, 'a lead and a booked_call outcome');
  const lead = await harness.database.db.selectFrom('leads').selectAll().where('id', '=', row.lead_id).executeTakeFirstOrThrow();
  assert.equal(lead.source, 'booking');

  // The slot is gone from the page.
  const slots = await slotsOf(harness, eventTypeId);
  assert.ok(!slots.body.slots.some((slot: { start: string }) => slot.start === at('10:00')));
});

test('a booking that names a video or route not of the page’s workspace is refused naming the field, and writes nothing', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const eventTypeId = await ws.addEventType();
  const ownVideo = await ws.addVideo({ title: 'Tour' });
  const ownRoute = (await ws.addRoute({ name: 'Plan finder', videoIds: [ownVideo] })).id;
  const foreignVideo = await other.addVideo({ title: 'Not theirs' });
  const foreignRoute = (await other.addRoute({ name: 'Not theirs either' })).id;
  const counts = async () => {
    const count = async (table: 'bookings' | 'leads' | 'outcomes') =>
      Number(
        (
          await harness.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', ws.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { bookings: await count('bookings'), leads: await count('leads'), outcomes: await count('outcomes') };
  };
  const before = await counts();
  for (const [fields, refused] of [
    [{ video_id: foreignVideo }, ['video_id']],
    [{ video_id: randomUUID() }, ['video_id']],
    [{ route_id: foreignRoute }, ['route_id']],
    [{ video_id: ownVideo, route_id: randomUUID() }, ['route_id']],
    [{ video_id: foreignVideo, route_id: foreignRoute }, ['video_id', 'route_id']],
  ] as const) {
    const res = await book(harness, eventTypeId, fields);
    assert.equal(res.status, 400, `${JSON.stringify(fields)}: ${res.raw}`);
    assert.equal(res.body.error.code, 'invalid_request');
    assert.deepEqual(
      res.body.error.details.errors.map((problem: { field: string }) => problem.field),
      refused,
      res.raw,
    );
    assert.ok(!res.raw.includes('Not theirs'), 'nothing of the other workspace is shown');
  }
  assert.deepEqual(await counts(), before, 'no booking, lead or ledger entry was written');

  // The workspace's own video and route are recorded; the slot refused above is still free.
  const res = await book(harness, eventTypeId, { video_id: ownVideo.toUpperCase(), route_id: ownRoute });
  assert.equal(res.status, 201, res.raw);
  const row = await harness.database.db
    .selectFrom('bookings')
    .select(['video_id', 'route_id'])
    .where('id', '=', res.body.booking_id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { video_id: ownVideo, route_id: ownRoute });
});

test('the page keeps only its own workspace’s video and route from an edited link, so the booking it sends is accepted', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const other = await harness.workspace();
  const eventTypeId = await ws.addEventType();
  const ownVideo = await ws.addVideo({ title: 'Tour' });
  const ownRoute = (await ws.addRoute({ name: 'Plan finder', videoIds: [ownVideo] })).id;
  const foreignVideo = await other.addVideo();
  const foreignRoute = (await other.addRoute()).id;
  const data = async (query: string) => pageData((await harness.request('GET', `/book/${eventTypeId}?${query}`)).raw);
  assert.deepEqual(await data(`video=${ownVideo.toUpperCase()}&route=${ownRoute}`), {
    event_type_id: eventTypeId,
    name: 'Intro call',
    duration_minutes: 30,
    video_id: ownVideo,
    route_id: ownRoute,
  });
  const edited = await data(`video=${foreignVideo}&route=${foreignRoute}`);
  assert.deepEqual([edited.video_id, edited.route_id], [null, null]);
  const unknown = await data(`video=${randomUUID()}&route=${randomUUID()}`);
  assert.deepEqual([unknown.video_id, unknown.route_id], [null, null]);
});

test('a taken or unoffered time is a 409 with the next open slots, and nothing of the other booking', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType();
  const feedId = await ws.addCalendarFeed({ name: 'Dentist appointments' });
  await harness.database.db
    .insertInto('calendar_busy_times')
    .values({
      feed_id: feedId,
      workspace_id: ws.id,
      starts_at: new Date(at('12:00')),
      ends_at: new Date(at('12:30')),
      summary: 'Root canal',
    })
    .execute();
  const first = await book(harness, eventTypeId, { email: 'first@example.com' });
  assert.equal(first.status, 201, first.raw);

  const lost = await book(harness, eventTypeId, { email: 'second@example.com' });
  assert.equal(lost.status, 409, lost.raw);
  assert.equal(lost.body.error.code, 'conflict');
  assert.equal(lost.body.error.message, 'That time was just taken or is no longer open; here are the next ones.');
  assert.deepEqual(lost.body.error.details, {
    reason: 'slot_not_offered',
    reasons: ['booked'],
    next_slots: [
      { start: at('10:30'), end: at('11:00') },
      { start: at('11:00'), end: at('11:30') },
      { start: at('11:30'), end: at('12:00') },
    ],
  });
  assert.doesNotMatch(lost.raw, new RegExp(`first@example|${first.body.booking_id}`));

  const busy = await book(harness, eventTypeId, { start: at('12:00') });
  assert.equal(busy.status, 409);
  assert.deepEqual(busy.body.error.details.reasons, ['busy_calendar']);
  assert.doesNotMatch(busy.raw, /Dentist|Root canal/);
  const early = await book(harness, eventTypeId, { start: at('08:30') });
  assert.equal(early.status, 409);
  assert.deepEqual(early.body.error.details.reasons, ['outside_hours']);
  const offGrid = await book(harness, eventTypeId, { start: at('09:10') });
  assert.equal(offGrid.status, 409);
  assert.deepEqual(offGrid.body.error.details.reasons, ['off_interval']);
});

test('a bad submission names every problem at once', async (t) => {
  const harness = await bookingApp(t);
  const ws = await harness.workspace();
  const eventTypeId = await ws.addEventType();
  const res = await harness.request('POST', `/book/${eventTypeId}`, {
    body: {
      start: 'tomorrow at ten',
      name: ' ',
      email: 'not-an-email',
      phone: '12',
      timezone: 'Mars/Olympus',
      video_id: 'v1',
      route_id: 'r1',
      viewer_id: 'short',
      coupon: 'FREE',
    },
  });
  assert.equal(res.status, 400, res.raw);
  assert.equal(res.body.error.code, 'invalid_request');
  const fields = res.body.error.details.errors.map((problem: { field: string }) => problem.field).sort();
  assert.deepEqual(fields, ['coupon', 'email', 'name', 'phone', 'route_id', 'start', 'timezone', 'video_id', 'viewer_id']);

  const empty = await harness.request('POST', `/book/${eventTypeId}`, { body: {} });
  assert.equal(empty.status, 400);
  assert.deepEqual(empty.body.error.details.errors.map((problem: { field: string }) => problem.field).sort(), [
    'email',
    'name',
    'start',
    'timezone',
  ]);
  const text = await harness.request('POST', `/book/${eventTypeId}`, { body: 'x'.repeat(9000) });
  assert.equal(text.status, 413, text.raw);
  assert.equal(text.body.error.code, 'payload_too_large');
});

test('bookings for one address are limited, with Retry-After', async (t) => {
  const harness = await bookingApp(t);
  const ws: TestWorkspace = await harness.workspace();
  const eventTypeId = await ws.addEventType();
  const email = `limited-${randomUUID().slice(0, 8)}@example.com`;
  // Times outside the hours: each attempt is a quick 409, and each counts.
  for (let i = 0; i < 5; i += 1) assert.equal((await book(harness, eventTypeId, { email, start: at('07:00') })).status, 409);
  const limited = await book(harness, eventTypeId, { email: email.toUpperCase(), start: at('09:00') });
  assert.equal(limited.status, 429, limited.raw);
  assert.equal(limited.body.error.code, 'rate_limited');
  assert.ok(Number(limited.headers['retry-after']) > 0);
  assert.equal((await book(harness, eventTypeId, { start: at('09:00') })).status, 201, 'another address books');
});
