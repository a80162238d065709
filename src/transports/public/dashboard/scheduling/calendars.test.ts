/**
 * Calendar feeds in the dashboard (issue 28): the list with each feed's last fetch (not read yet,
 * working, failing with the reason), and for owners and admins add (problems on their fields), refresh
 * and remove, each checked through the API; members and viewers get neither the forms nor the writes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testLookup } from '../../../../../test/helpers/app.ts';
import { csrfOf } from '../../../../../test/helpers/people.ts';
import { LOOPBACK } from '../../../../../test/helpers/webhooks.ts';
import { ROLES, schedulingSetUp } from './test-setup.ts';

test('the calendars page shows each feed’s state to every role; only owners and admins get the forms', async (t) => {
  const { harness, ws, people } = await schedulingSetUp(t);
  const fresh = await ws.addCalendarFeed({ name: 'New calendar' });
  const failing = await ws.addCalendarFeed({ name: 'Old calendar' });
  await harness.database.db
    .updateTable('calendar_feeds')
    .set({
      last_fetched_at: new Date(),
      last_success_at: new Date(Date.now() - 3_600_000),
      busy_count: 12,
      last_error: 'The calendar server answered HTTP 500: it will be tried again at the next refresh.',
    })
    .where('id', '=', failing)
    .execute();
  for (const role of ROLES) {
    const page = await people[role].get('/app/scheduling/calendars');
    assert.equal(page.statusCode, 200, role);
    assert.match(page.body, /<strong>New calendar<\/strong> <span class="sched-status pending">Not read yet<\/span>/);
    assert.match(page.body, /<strong>Old calendar<\/strong> <span class="sched-status failing">Failing<\/span>/);
    assert.match(
      page.body,
      /HTTP 500: it will be tried again at the next refresh\. The busy times of its last successful read still block slots\./,
    );
    assert.match(page.body, /12 busy times, read 1 hour ago/);
    assert.doesNotMatch(page.body, /private\/basic\.ics/, 'never the whole address');
    const manager = role === 'owner' || role === 'admin';
    assert.equal(page.body.includes('Add calendar'), manager, role);
    assert.equal(page.body.includes(`/app/scheduling/calendars/${fresh}/remove`), manager, role);
  }
});

test('an owner adds a feed, refreshes it and removes it; problems come back on their fields', async (t) => {
  const { people, api } = await schedulingSetUp(t, {
    outbound: { allowPrivateNetworks: LOOPBACK, lookup: testLookup, webhookTimeoutMs: 10_000 },
  });
  const owner = people.owner;
  const csrf = csrfOf((await owner.get('/app/scheduling/calendars')).body);
  const wrong = await owner.post('/app/scheduling/calendars', { csrf, name: '', url: 'ftp://localhost/cal.ics' });
  assert.equal(wrong.statusCode, 400);
  assert.match(wrong.body, /<span class="field-error" id="f-feed-name-error">/);
  assert.match(wrong.body, /<span class="field-error" id="f-feed-url-error">/);
  assert.match(wrong.body, /name="url" type="url" value="ftp:\/\/localhost\/cal.ics"/, 'the address is kept');

  const added = await owner.post('/app/scheduling/calendars', {
    csrf,
    name: 'Work calendar',
    url: 'webcal://localhost:8443/ical/private-4f2a/basic.ics',
  });
  assert.equal(added.statusCode, 303, added.body.slice(0, 400));
  const feeds = (await api('/scheduling/calendars')).body.calendar_feeds;
  assert.equal(feeds.length, 1);
  assert.equal(feeds[0].name, 'Work calendar');
  const id = feeds[0].calendar_feed_id;
  const page = await owner.get('/app/scheduling/calendars?done=added');
  assert.match(page.body, /The calendar is added/);
  assert.match(page.body, /https:\/\/localhost:8443\/ical\/…/);

  assert.equal((await owner.post(`/app/scheduling/calendars/${id}/refresh`, { csrf })).statusCode, 303);
  assert.equal((await owner.post(`/app/scheduling/calendars/${id}/remove`, { csrf: 'forged' })).statusCode, 403);
  assert.equal((await api('/scheduling/calendars')).body.calendar_feeds.length, 1);
  const removed = await owner.post(`/app/scheduling/calendars/${id}/remove`, { csrf });
  assert.equal(removed.statusCode, 303);
  assert.deepEqual((await api('/scheduling/calendars')).body.calendar_feeds, []);
});

test('members and viewers cannot add, refresh or remove a feed', async (t) => {
  const { ws, people, api } = await schedulingSetUp(t);
  const feed = await ws.addCalendarFeed({ name: 'Kept' });
  for (const role of ['member', 'viewer'] as const) {
    const csrf = csrfOf((await people[role].get('/app')).body);
    assert.equal(
      (await people[role].post('/app/scheduling/calendars', { csrf, name: 'Mine', url: 'https://calendar.example.com/a.ics' })).statusCode,
      403,
    );
    assert.equal((await people[role].post(`/app/scheduling/calendars/${feed}/refresh`, { csrf })).statusCode, 403);
    assert.equal((await people[role].post(`/app/scheduling/calendars/${feed}/remove`, { csrf })).statusCode, 403);
  }
  assert.deepEqual(
    (await api('/scheduling/calendars')).body.calendar_feeds.map((f: { name: string }) => f.name),
    ['Kept'],
  );
});
