/**
 * The calendar feed operations over HTTP (and MCP): adding a feed (webcal read as https, the URL
 * sealed and shown only as its host, its first fetch queued now), every problem of a call named at
 * once, addresses the SSRF guard refuses, the limit of feeds per workspace, the list with its fetch
 * state and cursors, refresh moving the one queued fetch to now, delete taking the busy times and the
 * queued fetch with it, and plans, scopes and tenancy. The fetching itself is
 * src/workers/calendar-feed-fetch.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { startTestApp, TEST_SECRET, type TestWorkspace, testLookup } from '../../../../../test/helpers/app.ts';
import { callTool, connectMcp } from '../../../../../test/helpers/mcp-client.ts';
import { LOOPBACK } from '../../../../../test/helpers/webhooks.ts';
import { TIER_SCOPES } from '../../../../core/scopes.ts';
import { createSealedBox } from '../../../../core/secrets/sealed-box.ts';
import type { Database } from '../../../../db/tables/index.ts';
import { CALENDAR_FEED_FETCH_JOB } from '../calendar-feed-jobs.ts';
import { CALENDAR_FEED_URL_PURPOSE } from '../calendar-feed-url.ts';
import { MAX_FEEDS } from '../calendar-feeds.queries.ts';

const PATH = '/v1/scheduling/calendars';
/** An app whose SSRF guard lets loopback through, as an operator's allow-list would; `localhost` resolves to it. */
const loopbackApp = (t: Parameters<typeof startTestApp>[0]) =>
  startTestApp(t, { outbound: { allowPrivateNetworks: LOOPBACK, lookup: testLookup, webhookTimeoutMs: 10_000 } });

const problemFields = (res: { body: { error: { details: { errors: { field: string }[] } } } }) =>
  res.body.error.details.errors.map((error) => error.field);

function pendingFetches(db: Kysely<Database>, ws: TestWorkspace) {
  return db
    .selectFrom('jobs')
    .select(['payload', 'run_at', 'status'])
    .where('workspace_id', '=', ws.id)
    .where('kind', '=', CALENDAR_FEED_FETCH_JOB)
    .where('status', 'in', ['queued', 'running'])
    .orderBy('run_at')
    .execute();
}

test('create_calendar_feed: the URL is sealed and shown only as its host, webcal is read as https, and the first fetch is queued now', async (t) => {
  const harness = await loopbackApp(t);
  const ws = await harness.workspace();
  const before = Date.now();

  const created = await harness.request('POST', PATH, {
    token: ws.key,
    body: { name: '  Work calendar ', url: 'webcal://localhost:8443/calendar/ical/me%40example.com/private-4f2a9c/basic.ics#top' },
  });
  assert.equal(created.status, 201, created.raw);
  const feed = created.body;
  assert.deepEqual(
    {
      ...feed,
      calendar_feed_id: typeof feed.calendar_feed_id,
      created_at: typeof feed.created_at,
      next_fetch_at: typeof feed.next_fetch_at,
    },
    {
      calendar_feed_id: 'string',
      name: 'Work calendar',
      url: 'https://localhost:8443/calendar/…',
      last_fetched_at: null,
      last_success_at: null,
      last_error: null,
      busy_count: 0,
      next_fetch_at: 'string',
      fetching: false,
      created_at: 'string',
    },
  );
  assert.ok(Date.parse(feed.next_fetch_at) >= before - 1000 && Date.parse(feed.next_fetch_at) <= Date.now(), 'due now');
  assert.doesNotMatch(created.raw, /private-4f2a9c/, 'the secret part of the address never appears in an answer');

  const row = await harness.database.db
    .selectFrom('calendar_feeds')
    .selectAll()
    .where('id', '=', feed.calendar_feed_id)
    .executeTakeFirstOrThrow();
  assert.doesNotMatch(row.url_sealed, /private-4f2a9c/, 'stored sealed');
  assert.equal(
    createSealedBox(TEST_SECRET, CALENDAR_FEED_URL_PURPOSE).open(row.url_sealed),
    'https://localhost:8443/calendar/ical/me%40example.com/private-4f2a9c/basic.ics',
    'webcal read as https, the fragment (never sent) dropped',
  );
  const jobs = await pendingFetches(harness.database.db, ws);
  assert.deepEqual(
    jobs.map((job) => [job.payload, job.status, job.run_at.toISOString()]),
    [[{ feed_id: feed.calendar_feed_id }, 'queued', feed.next_fetch_at]],
  );
});

test('create_calendar_feed: every problem at once, and addresses the SSRF guard refuses', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();

  const both = await harness.request('POST', PATH, {
    token: ws.key,
    body: { name: '   ', url: 'ftp://calendar.example.com/basic.ics', extra: 1 },
  });
  assert.equal(both.status, 400, both.raw);
  assert.deepEqual(problemFields(both).sort(), ['extra', 'name', 'url']);
  assert.match(both.body.error.message, /url: must be an http, https or webcal URL/);

  const refusals: [string, RegExp][] = [
    ['http://127.0.0.1/basic.ics', /^127\.0\.0\.1 is a loopback address, which cannot be fetched/],
    ['https://localhost/basic.ics', /^localhost resolves to a loopback address, which cannot be fetched/],
    ['webcal://169.254.169.254/latest', /^169\.254\.169\.254 is a cloud metadata address, which cannot be fetched$/],
    ['https://nowhere.example.com/basic.ics', /^The host nowhere\.example\.com could not be resolved/],
    ['https://user:pass@calendar.example.com/basic.ics', /must not contain a user name or password/],
  ];
  for (const [url, problem] of refusals) {
    const res = await harness.request('POST', PATH, { token: ws.key, body: { name: 'Calendar', url } });
    assert.equal(res.status, 400, `${url}: ${res.raw}`);
    assert.deepEqual(problemFields(res), ['url'], url);
    assert.match(res.body.error.details.errors[0].problem, problem, url);
  }
  const feeds = await harness.database.db.selectFrom('calendar_feeds').select('id').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(feeds, [], 'nothing was added');
});

test(`create_calendar_feed: at most ${MAX_FEEDS} feeds per workspace`, async (t) => {
  const harness = await loopbackApp(t);
  const ws = await harness.workspace();
  for (let i = 1; i < MAX_FEEDS; i++) await ws.addCalendarFeed({ name: `Feed ${i}` });
  const body = { name: 'One more', url: 'https://localhost/basic.ics' };
  const last = await harness.request('POST', PATH, { token: ws.key, body });
  assert.equal(last.status, 201, last.raw);
  const over = await harness.request('POST', PATH, { token: ws.key, body });
  assert.equal(over.status, 409, over.raw);
  assert.deepEqual([over.body.error.code, over.body.error.details], ['conflict', { reason: 'feed_limit', limit: MAX_FEEDS }]);
  assert.match(over.body.error.message, /delete_calendar_feed/);
  const other = await harness.workspace();
  assert.equal((await harness.request('POST', PATH, { token: other.key, body })).status, 201, 'the limit is per workspace');
});

test('list_calendar_feeds: newest first, with each feed’s fetch state, a page at a time', async (t) => {
  const harness = await loopbackApp(t);
  const ws = await harness.workspace();
  const db = harness.database.db;
  const older = await ws.addCalendarFeed({ name: 'Older', url: 'https://calendar.example.com/private/a.ics' });
  const fetchedAt = new Date('2026-03-01T12:00:00Z');
  await db
    .updateTable('calendar_feeds')
    .set({
      last_fetched_at: fetchedAt,
      last_success_at: new Date('2026-03-01T11:45:00Z'),
      last_error: 'The calendar server answered HTTP 500.',
      busy_count: 3,
    })
    .where('id', '=', older)
    .execute();
  const created = await harness.request('POST', PATH, { token: ws.key, body: { name: 'Newer', url: 'https://localhost/b.ics' } });
  const newer = created.body.calendar_feed_id;
  await db
    .updateTable('jobs')
    .set({ status: 'running' })
    .where('workspace_id', '=', ws.id)
    .where('kind', '=', CALENDAR_FEED_FETCH_JOB)
    .execute();

  const first = await harness.request('GET', `${PATH}?limit=1`, { token: ws.key });
  assert.equal(first.status, 200, first.raw);
  assert.deepEqual(
    first.body.calendar_feeds.map((feed: { calendar_feed_id: string; fetching: boolean; next_fetch_at: string | null }) => [
      feed.calendar_feed_id,
      feed.fetching,
      feed.next_fetch_at,
    ]),
    [[newer, true, null]],
    'a fetch running now',
  );
  assert.deepEqual([first.body.pagination.total, first.body.pagination.has_more], [2, true]);
  const second = await harness.request('GET', `${PATH}?limit=1&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`, {
    token: ws.key,
  });
  assert.equal(second.status, 200, second.raw);
  assert.deepEqual(second.body.calendar_feeds, [
    {
      calendar_feed_id: older,
      name: 'Older',
      url: 'https://calendar.example.com/private/…',
      last_fetched_at: fetchedAt.toISOString(),
      last_success_at: '2026-03-01T11:45:00.000Z',
      last_error: 'The calendar server answered HTTP 500.',
      busy_count: 3,
      next_fetch_at: null,
      fetching: false,
      created_at: second.body.calendar_feeds[0].created_at,
    },
  ]);
  assert.equal(second.body.pagination.has_more, false);
});

test('refresh_calendar_feed: the one queued fetch becomes due now, or one is queued', async (t) => {
  const harness = await loopbackApp(t);
  const ws = await harness.workspace();
  const db = harness.database.db;
  const created = await harness.request('POST', PATH, { token: ws.key, body: { name: 'Team', url: 'https://localhost/team.ics' } });
  const feedId = created.body.calendar_feed_id;
  const later = new Date(Date.now() + 15 * 60_000);
  await db
    .updateTable('jobs')
    .set({ run_at: later })
    .where('workspace_id', '=', ws.id)
    .where('kind', '=', CALENDAR_FEED_FETCH_JOB)
    .execute();
  assert.equal((await harness.request('GET', PATH, { token: ws.key })).body.calendar_feeds[0].next_fetch_at, later.toISOString());

  const before = Date.now();
  const refreshed = await harness.request('POST', `${PATH}/${feedId}/refresh`, { token: ws.key });
  assert.equal(refreshed.status, 200, refreshed.raw);
  assert.ok(Date.parse(refreshed.body.next_fetch_at) >= before - 1000 && Date.parse(refreshed.body.next_fetch_at) < later.getTime());
  assert.equal((await harness.request('POST', `${PATH}/${feedId}/refresh`, { token: ws.key })).status, 200);
  const jobs = await pendingFetches(db, ws);
  assert.deepEqual(
    jobs.map((job) => job.run_at.toISOString()),
    [refreshed.body.next_fetch_at],
    'still one queued fetch, due when the first refresh asked',
  );

  const withoutJob = await ws.addCalendarFeed();
  const queued = await harness.request('POST', `${PATH}/${withoutJob}/refresh`, { token: ws.key });
  assert.equal(queued.status, 200, queued.raw);
  assert.equal(typeof queued.body.next_fetch_at, 'string');
  assert.equal((await pendingFetches(db, ws)).length, 2);
});

test('delete_calendar_feed: its busy times and its queued fetch go with it', async (t) => {
  const harness = await loopbackApp(t);
  const ws = await harness.workspace();
  const db = harness.database.db;
  const created = await harness.request('POST', PATH, { token: ws.key, body: { name: 'Team', url: 'https://localhost/team.ics' } });
  const feedId = created.body.calendar_feed_id;
  const kept = await ws.addCalendarFeed({ name: 'Kept' });
  const busy = (feed: string, hour: number) => ({
    feed_id: feed,
    workspace_id: ws.id,
    starts_at: new Date(Date.UTC(2026, 2, 5, hour)),
    ends_at: new Date(Date.UTC(2026, 2, 5, hour + 1)),
    summary: null,
  });
  await db
    .insertInto('calendar_busy_times')
    .values([busy(feedId, 9), busy(feedId, 11), busy(kept, 9)])
    .execute();
  await db.updateTable('calendar_feeds').set({ busy_count: 2 }).where('id', '=', feedId).execute();

  const deleted = await harness.request('DELETE', `${PATH}/${feedId}`, { token: ws.key });
  assert.equal(deleted.status, 200, deleted.raw);
  assert.deepEqual([deleted.body.calendar_feed_id, deleted.body.deleted, deleted.body.busy_times_deleted], [feedId, true, 2]);
  const left = await db.selectFrom('calendar_busy_times').select('feed_id').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(left, [{ feed_id: kept }], 'only the other feed’s busy times remain');
  assert.deepEqual(await pendingFetches(db, ws), [], 'its queued fetch is dropped');
  const again = await harness.request('DELETE', `${PATH}/${feedId}`, { token: ws.key });
  assert.deepEqual([again.status, again.body.error.code], [404, 'not_found']);
  assert.equal((await harness.request('POST', `${PATH}/${feedId}/refresh`, { token: ws.key })).status, 404);
});

test('plans, scopes and tenancy: free plans, read keys and another workspace’s feeds are refused; MCP calls the same operations', async (t) => {
  const harness = await loopbackApp(t);
  const ws = await harness.workspace();
  const feedId = await ws.addCalendarFeed({ name: 'Mine' });

  const free = await harness.workspace('free');
  for (const [method, path] of [
    ['GET', PATH],
    ['POST', PATH],
  ] as const) {
    const res = await harness.request(method, path, {
      token: free.key,
      body: method === 'POST' ? { name: 'x', url: 'https://localhost/x.ics' } : undefined,
    });
    assert.deepEqual([res.status, res.body.error.code, res.body.error.details.entitlement], [403, 'plan_limit', 'scheduling'], method);
  }

  const reader = await ws.mintKey({ scopes: TIER_SCOPES.read });
  assert.equal((await harness.request('GET', PATH, { token: reader.key })).status, 200, 'reading needs workspace:read');
  const refused = await harness.request('POST', `${PATH}/${feedId}/refresh`, { token: reader.key });
  assert.deepEqual([refused.status, refused.body.error.code], [403, 'forbidden']);

  const other = await harness.workspace();
  for (const [method, path] of [
    ['POST', `${PATH}/${feedId}/refresh`],
    ['DELETE', `${PATH}/${feedId}`],
  ] as const) {
    const res = await harness.request(method, path, { token: other.key });
    assert.deepEqual([res.status, res.body.error.code], [404, 'not_found'], `${method} ${path}`);
  }
  assert.deepEqual((await harness.request('GET', PATH, { token: other.key })).body.calendar_feeds, []);

  const client = await connectMcp(t, harness.app, ws.key);
  const listed = await callTool(client, 'list_calendar_feeds', {});
  assert.equal(listed.isError, undefined);
  assert.deepEqual(
    listed.structuredContent.calendar_feeds.map((feed: { calendar_feed_id: string }) => feed.calendar_feed_id),
    [feedId],
  );
  const refreshed = await callTool(client, 'refresh_calendar_feed', { calendar_feed_id: feedId });
  assert.equal(typeof refreshed.structuredContent.next_fetch_at, 'string');
});
