/**
 * The Audit log tab (issue 28): list_audit_events with its filters (who, action, object id, days in
 * the workspace's zone) and pages; a bad day is a problem beside its field; a member is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { signIn } from '../../../../../test/helpers/people.ts';
import { dayStart } from './zoned-day.ts';

const PASSWORD = 'correct horse battery staple';

test('the audit log filters by action, object and person, and pages', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const videoId = await ws.addVideo({ title: 'Pricing' });
  for (let i = 0; i < 3; i += 1) {
    await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { title: `Pricing ${i}` } });
  }
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const all = await person.get('/app/settings/audit');
  assert.equal(all.statusCode, 200);
  assert.match(all.body, /aria-current="page">Audit log</);
  assert.match(all.body, /<code>update_video<\/code>/);
  assert.match(all.body, /<option value="[^"]+">Olive Owner<\/option>/, 'people to filter by');

  const byAction = await person.get(`/app/settings/audit?action=update_video&object_id=${videoId}`);
  assert.equal((byAction.body.match(/<code>update_video<\/code>/g) ?? []).length, 3);
  assert.match(byAction.body, new RegExp(`href="/app/videos/${videoId}"`));

  const byPerson = await person.get(`/app/settings/audit?actor=${owner.userId}`);
  assert.doesNotMatch(byPerson.body, /<code>update_video<\/code>/, 'the owner changed no video');
  assert.match(byPerson.body, /sign_in/);

  const future = await person.get('/app/settings/audit?from=2999-01-01');
  assert.match(future.body, /No events match/);
  const bad = await person.get('/app/settings/audit?from=yesterday');
  assert.equal(bad.statusCode, 400);
  assert.match(bad.body, /id="f-from-error"/);
  const badAction = await person.get('/app/settings/audit?action=Not+An+Action');
  assert.equal(badAction.statusCode, 400);
  assert.match(badAction.body, /id="f-action-error"/);
  const badActor = await person.get('/app/settings/audit?actor=nobody');
  assert.equal(badActor.statusCode, 400);
  assert.match(badActor.body, /<p class="alert" role="alert">actor /, 'a problem no field shows is said above the list');

  // 50 a page: more than that leaves a link to older events carrying the filters.
  for (let i = 0; i < 50; i += 1) {
    await harness.request('PATCH', `/v1/videos/${videoId}`, { token: ws.key, body: { title: `Again ${i}` } });
  }
  const first = await person.get('/app/settings/audit?action=update_video');
  const older = /href="(\/app\/settings\/audit\?action=update_video&#38;cursor=[^"]+)">Older events/.exec(first.body)?.[1];
  assert.ok(older, 'a next page');
  const second = await person.get(older.replaceAll('&#38;', '&'));
  assert.equal((second.body.match(/<code>update_video<\/code>/g) ?? []).length, 3);
});

test('days start at midnight in the workspace zone; a member is refused the log', async (t) => {
  assert.equal(dayStart('2026-11-03', 'UTC'), '2026-11-03T00:00:00.000Z');
  assert.equal(dayStart('2026-11-03', 'Europe/Paris'), '2026-11-02T23:00:00.000Z');
  assert.equal(dayStart('2026-07-03', 'America/New_York', 1), '2026-07-04T04:00:00.000Z');
  assert.equal(dayStart('yesterday', 'UTC'), undefined);
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  assert.equal((await person.get('/app/settings/audit')).statusCode, 403);
});
