/**
 * Calendar feeds fetched from a real loopback server serving real ICS text, with the clock pinned:
 * a weekly New York meeting across the spring-forward change, with one occurrence moved, one
 * canceled, one excluded and one added; an all-day event on Berlin's 23-hour day; an Outlook zone
 * known only from its VTIMEZONE; floating, transparent and canceled events. Then every way a fetch
 * fails (HTTP 500, not iCalendar, too large while streaming, too slow, a rule that never ends, a
 * blocked address, a redirect to the metadata address), each a sentence, the last good busy times
 * kept. The stored rows feed loadSlotContext. Last, the real job worker: a feed added through the API
 * is fetched, the next fetch is queued 15 minutes on, and a feed left without a job is queued again.
 */
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestContext, test } from 'node:test';
import type { Kysely } from 'kysely';
import { startTestApp, TEST_SECRET, type TestApp, type TestWorkspace, testLookup } from '../../test/helpers/app.ts';
import { eventually, LOOPBACK } from '../../test/helpers/webhooks.ts';
import type { Database } from '../db/tables/index.ts';
import { CALENDAR_FEED_FETCH_JOB, FEED_REFRESH_MS, loadSlotContext, requeueStrandedFeeds } from '../domains/scheduling/index.ts';
import { startJobWorker } from '../job-queue/worker.ts';
import { type CalendarFeedFetchOptions, calendarFeedFetchHandler, fetchCalendarFeed, MAX_FEED_BYTES } from './calendar-feed-fetch.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const ics = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Cuepoint tests//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');

const NEW_YORK = [
  'BEGIN:VTIMEZONE',
  'TZID:America/New_York',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];
const OUTLOOK_BERLIN = [
  'BEGIN:VTIMEZONE',
  'TZID:W. Europe Standard Time',
  'BEGIN:STANDARD',
  'DTSTART:16010101T030000',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

const event = (...lines: string[]) => ['BEGIN:VEVENT', `DTSTAMP:20260201T000000Z`, ...lines, 'END:VEVENT'];

/** Thursdays 10:00–11:00 New York time from 26 February 2026, six times; the US moves its clocks on 8 March. */
const TEAM_CALENDAR = ics(
  ...NEW_YORK,
  ...OUTLOOK_BERLIN,
  ...event(
    'UID:weekly@test',
    'SUMMARY:Weekly sync',
    'DTSTART;TZID=America/New_York:20260226T100000',
    'DTEND;TZID=America/New_York:20260226T110000',
    'RRULE:FREQ=WEEKLY;COUNT=6',
    'RDATE;TZID=America/New_York:20260307T100000',
    'EXDATE;TZID=America/New_York:20260402T100000',
  ),
  ...event(
    'UID:weekly@test',
    'SUMMARY:Weekly sync (moved)',
    'RECURRENCE-ID;TZID=America/New_York:20260312T100000',
    'DTSTART;TZID=America/New_York:20260312T140000',
    'DTEND;TZID=America/New_York:20260312T150000',
  ),
  ...event(
    'UID:weekly@test',
    'SUMMARY:Weekly sync',
    'RECURRENCE-ID;TZID=America/New_York:20260319T100000',
    'DTSTART;TZID=America/New_York:20260319T100000',
    'DTEND;TZID=America/New_York:20260319T110000',
    'STATUS:CANCELLED',
  ),
  ...event('UID:offsite@test', 'SUMMARY:Offsite', 'DTSTART;VALUE=DATE:20260329', 'DTEND;VALUE=DATE:20260330'),
  ...event('UID:outlook@test', 'SUMMARY:Dentist', 'DTSTART;TZID=W. Europe Standard Time:20260401T090000', 'DURATION:PT30M'),
  ...event('UID:floating@test', 'SUMMARY:Gym', 'DTSTART:20260310T090000', 'DTEND:20260310T100000'),
  ...event('UID:free@test', 'SUMMARY:Focus (free)', 'DTSTART:20260311T090000Z', 'DTEND:20260311T100000Z', 'TRANSP:TRANSPARENT'),
  ...event('UID:canceled@test', 'SUMMARY:Call off', 'DTSTART:20260312T090000Z', 'DTEND:20260312T100000Z', 'STATUS:CANCELLED'),
  ...event('UID:past@test', 'SUMMARY:Long ago', 'DTSTART:20250101T090000Z', 'DTEND:20250101T100000Z'),
);

/** What TEAM_CALENDAR blocks for a workspace in Europe/Berlin, seen on 1 March 2026. */
const TEAM_BUSY = [
  ['2026-03-05T15:00:00.000Z', '2026-03-05T16:00:00.000Z', 'Weekly sync'], // 10:00 EST
  ['2026-03-07T15:00:00.000Z', '2026-03-07T16:00:00.000Z', 'Weekly sync'], // the RDATE, still EST
  ['2026-03-10T08:00:00.000Z', '2026-03-10T09:00:00.000Z', 'Gym'], // floating: Berlin's 09:00 (CET)
  ['2026-03-12T18:00:00.000Z', '2026-03-12T19:00:00.000Z', 'Weekly sync (moved)'], // 14:00 EDT
  ['2026-03-26T14:00:00.000Z', '2026-03-26T15:00:00.000Z', 'Weekly sync'], // 10:00 EDT
  ['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', 'Offsite'], // Berlin's 29 March has 23 hours
  ['2026-04-01T07:00:00.000Z', '2026-04-01T07:30:00.000Z', 'Dentist'], // 09:00 CEST, from the VTIMEZONE
];

/** A rule ical.js expands for ever: no 30 February ever comes. */
const NEVER_ENDING = ics(
  ...event('UID:spin@test', 'DTSTART:20260101T100000Z', 'DTEND:20260101T110000Z', 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'),
);

interface FeedServer {
  url: string;
  /** What /team.ics serves now. */
  team: { status: number; body: string };
}

async function feedServer(t: TestContext): Promise<FeedServer> {
  const state: FeedServer = { url: '', team: { status: 200, body: TEAM_CALENDAR } };
  const calendar = (response: ServerResponse, body: string, status = 200) =>
    response.writeHead(status, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
  const server = createServer((request, response) => {
    switch (new URL(request.url ?? '/', 'http://feeds').pathname) {
      case '/team.ics':
        return calendar(response, state.team.body, state.team.status);
      case '/broken.ics':
        return response.writeHead(500).end('Internal Server Error');
      case '/page.ics':
        return response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Sign in</title>');
      case '/huge.ics': {
        // No Content-Length: the size is only known by counting what streams in.
        response.writeHead(200, { 'content-type': 'text/calendar' });
        const chunk = Buffer.alloc(64 * 1024, 'X');
        let sent = 0;
        const more = () => {
          while (sent <= MAX_FEED_BYTES + chunk.length) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', more);
          }
          response.end();
        };
        response.write('BEGIN:VCALENDAR\r\nX-FILLER:');
        return more();
      }
      case '/slow.ics':
        return; // never answers; the connection is closed when the test ends
      case '/spin.ics':
        return calendar(response, NEVER_ENDING);
      case '/to-metadata':
        return response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      default:
        return response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

const options = (overrides: Partial<CalendarFeedFetchOptions> = {}): CalendarFeedFetchOptions => ({
  secret: TEST_SECRET,
  outbound: { allowPrivateNetworks: LOOPBACK, lookup: testLookup },
  log: quiet,
  clock: () => NOW,
  ...overrides,
});

async function berlinWorkspace(harness: TestApp): Promise<TestWorkspace> {
  const ws = await harness.workspace();
  await harness.database.db.updateTable('workspaces').set({ timezone: 'Europe/Berlin' }).where('id', '=', ws.id).execute();
  return ws;
}

async function busyRows(db: Kysely<Database>, feedId: string) {
  const rows = await db
    .selectFrom('calendar_busy_times')
    .select(['starts_at', 'ends_at', 'summary'])
    .where('feed_id', '=', feedId)
    .orderBy('starts_at')
    .execute();
  return rows.map((row) => [row.starts_at.toISOString(), row.ends_at.toISOString(), row.summary]);
}

const feedRow = (db: Kysely<Database>, feedId: string) =>
  db.selectFrom('calendar_feeds').selectAll().where('id', '=', feedId).executeTakeFirstOrThrow();

test('a feed’s busy times: recurrences across a DST change with moved, canceled, excluded and added occurrences, all-day, zoned and floating events', async (t) => {
  const harness = await startTestApp(t);
  const server = await feedServer(t);
  const ws = await berlinWorkspace(harness);
  const feedId = await ws.addCalendarFeed({ name: 'Team calendar', url: `${server.url}/team.ics` });
  const db = harness.database.db;

  assert.equal(await fetchCalendarFeed(db, { workspaceId: ws.id, feedId }, options()), 'stored');
  assert.deepEqual(await busyRows(db, feedId), TEAM_BUSY);
  const feed = await feedRow(db, feedId);
  assert.deepEqual(
    [feed.last_fetched_at?.toISOString(), feed.last_success_at?.toISOString(), feed.last_error, feed.busy_count],
    [NOW.toISOString(), NOW.toISOString(), null, TEAM_BUSY.length],
  );

  // The slot engine's context: the busy times, named by the feed.
  const context = await loadSlotContext(db, {
    workspaceId: ws.id,
    eventTypeId: await ws.addEventType(),
    from: new Date('2026-03-05T00:00:00Z'),
    to: new Date('2026-03-06T00:00:00Z'),
    now: NOW,
  });
  const sync = context.busy.find((busy) => busy.start.toISOString() === '2026-03-05T15:00:00.000Z');
  assert.deepEqual(sync, { start: new Date('2026-03-05T15:00:00Z'), end: new Date('2026-03-05T16:00:00Z'), feed: 'Team calendar' });

  // The calendar changes: the next fetch replaces every busy time.
  server.team.body = ics(...event('UID:only@test', 'SUMMARY:Only this', 'DTSTART:20260305T120000Z', 'DTEND:20260305T130000Z'));
  assert.equal(await fetchCalendarFeed(db, { workspaceId: ws.id, feedId }, options()), 'stored');
  assert.deepEqual(await busyRows(db, feedId), [['2026-03-05T12:00:00.000Z', '2026-03-05T13:00:00.000Z', 'Only this']]);
  assert.equal((await feedRow(db, feedId)).busy_count, 1);
});

test('every failure is a sentence in last_error, and the busy times of the last success stay', async (t) => {
  const harness = await startTestApp(t);
  const server = await feedServer(t);
  const ws = await berlinWorkspace(harness);
  const db = harness.database.db;
  const feedId = await ws.addCalendarFeed({ name: 'Team calendar', url: `${server.url}/team.ics` });
  assert.equal(await fetchCalendarFeed(db, { workspaceId: ws.id, feedId }, options()), 'stored');

  const later = new Date(NOW.getTime() + FEED_REFRESH_MS);
  server.team.status = 500;
  assert.equal(await fetchCalendarFeed(db, { workspaceId: ws.id, feedId }, options({ clock: () => later })), 'failed');
  const failed = await feedRow(db, feedId);
  assert.equal(failed.last_error, 'The calendar server answered HTTP 500: it will be tried again at the next refresh.');
  assert.deepEqual(
    [failed.last_fetched_at?.toISOString(), failed.last_success_at?.toISOString(), failed.busy_count],
    [later.toISOString(), NOW.toISOString(), TEAM_BUSY.length],
  );
  assert.deepEqual(await busyRows(db, feedId), TEAM_BUSY, 'a calendar that cannot be read for a while has not become free');

  server.team.status = 200;
  assert.equal(await fetchCalendarFeed(db, { workspaceId: ws.id, feedId }, options({ clock: () => later })), 'stored');
  assert.equal((await feedRow(db, feedId)).last_error, null, 'a success clears the error');

  const cases: [string, string | RegExp, Partial<CalendarFeedFetchOptions>?][] = [
    ['/broken.ics', 'The calendar server answered HTTP 500: it will be tried again at the next refresh.'],
    [
      '/gone.ics',
      'The calendar server answered HTTP 404: the address may have been reset or unshared in the calendar app; add the new one.',
    ],
    ['/page.ics', /^The link did not return an iCalendar feed \(it should start with BEGIN:VCALENDAR\)/],
    ['/huge.ics', 'The feed is larger than 5 MiB, the most that is read.'],
    ['/slow.ics', 'The calendar server did not send the whole feed within 0.3 s.', { timeoutMs: 300 }],
    ['/spin.ics', /^The feed could not be read within 1 s: an event repeats in a way that never ends/, { readDeadlineMs: 1000 }],
    ['/to-metadata', /^The calendar server redirected: 169\.254\.169\.254 is a cloud metadata address, which cannot be fetched\.$/],
  ];
  for (const [path, expected, overrides] of cases) {
    const id = await ws.addCalendarFeed({ name: path, url: `${server.url}${path}` });
    assert.equal(await fetchCalendarFeed(db, { workspaceId: ws.id, feedId: id }, options(overrides)), 'failed', path);
    const row = await feedRow(db, id);
    if (typeof expected === 'string') assert.equal(row.last_error, expected, path);
    else assert.match(row.last_error ?? '', expected, path);
    assert.deepEqual([row.last_success_at, row.busy_count, await busyRows(db, id)], [null, 0, []], path);
  }

  // Garbage that starts like a calendar, and a name that resolves to loopback without the operator's allow-list.
  server.team.body = 'BEGIN:VCALENDAR\r\nthis is not a property line\r\nEND:VCALENDAR\r\n';
  assert.equal(await fetchCalendarFeed(db, { workspaceId: ws.id, feedId }, options()), 'failed');
  assert.match((await feedRow(db, feedId)).last_error ?? '', /^The feed is not valid iCalendar: /);
  const blocked = await ws.addCalendarFeed({ name: 'Local', url: `http://localhost:${new URL(server.url).port}/team.ics` });
  assert.equal(
    await fetchCalendarFeed(
      db,
      { workspaceId: ws.id, feedId: blocked },
      options({ outbound: { allowPrivateNetworks: [], lookup: testLookup } }),
    ),
    'failed',
  );
  assert.match((await feedRow(db, blocked)).last_error ?? '', /^localhost resolves to a loopback address, which cannot be fetched\./);

  // A feed deleted while it was being fetched is left alone.
  assert.equal(await fetchCalendarFeed(db, { workspaceId: ws.id, feedId: '00000000-0000-4000-8000-000000000000' }, options()), 'gone');
});

test('the job worker fetches a feed added through the API, queues the next fetch 15 minutes on, and requeues a feed left without one', async (t) => {
  // The worker claims every workspace's jobs, and requeueStrandedFeeds looks at every feed: a database of its own.
  const harness = await startTestApp(t, {
    isolated: true,
    outbound: { allowPrivateNetworks: LOOPBACK, lookup: testLookup, webhookTimeoutMs: 10_000 },
  });
  const server = await feedServer(t);
  const ws = await berlinWorkspace(harness);
  const db = harness.database.db;
  // The worker runs on the real clock here (the queue's), so the feed holds an event of tomorrow.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
  server.team.body = ics(...event('UID:tomorrow@test', 'SUMMARY:Tomorrow', `DTSTART:${tomorrow}T090000Z`, `DTEND:${tomorrow}T100000Z`));

  const created = await harness.request('POST', '/v1/scheduling/calendars', {
    token: ws.key,
    body: { name: 'Team calendar', url: `${server.url}/team.ics?token=secret-part` },
  });
  assert.equal(created.status, 201, created.raw);
  const feedId = created.body.calendar_feed_id as string;

  const worker = startJobWorker({ db, handlers: [calendarFeedFetchHandler(options({ clock: () => new Date() }))], log: quiet, pollMs: 20 });
  t.after(() => worker.stop());
  await eventually(async () => {
    const [feed, job] = await Promise.all([
      feedRow(db, feedId),
      db.selectFrom('jobs').select('id').where('workspace_id', '=', ws.id).where('status', '=', 'queued').executeTakeFirst(),
    ]);
    if (feed.last_error) throw new Error(feed.last_error);
    return feed.last_success_at && job;
  }, 'the feed fetched and its next fetch queued');
  const list = await harness.request('GET', '/v1/scheduling/calendars', { token: ws.key });
  assert.equal(list.status, 200, list.raw);
  const listed = list.body.calendar_feeds[0];
  assert.equal(listed.last_error, null);
  assert.equal(listed.busy_count, 1);
  const gap = Date.parse(listed.next_fetch_at) - Date.parse(listed.last_success_at);
  assert.ok(Math.abs(gap - FEED_REFRESH_MS) < 60_000, `next fetch ${gap} ms after the last`);
  const pending = await db
    .selectFrom('jobs')
    .select('status')
    .where('workspace_id', '=', ws.id)
    .where('kind', '=', CALENDAR_FEED_FETCH_JOB)
    .where('status', 'in', ['queued', 'running'])
    .execute();
  assert.deepEqual(pending, [{ status: 'queued' }], 'one pending fetch per feed');
  assert.equal(listed.calendar_feed_id, feedId);
  assert.equal(listed.url, `${server.url}/…`, 'the address’s path and query (its secret) are never shown');

  const stranded = await ws.addCalendarFeed({ name: 'No job', url: `${server.url}/team.ics` });
  assert.equal(await requeueStrandedFeeds(db, new Date()), 1, 'only the feed without a pending fetch');
  await eventually(async () => (await feedRow(db, stranded)).last_success_at, 'the stranded feed fetched');
  assert.equal(await requeueStrandedFeeds(db, new Date()), 0);
});
