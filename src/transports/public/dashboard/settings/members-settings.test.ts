/**
 * The Members tab (issue 28): an owner invites, changes a role and removes through the page, each
 * checked through the API; the invitation form offers no role above one's own and the server refuses
 * one anyway; the last owner's 409 is shown in its own words; problems sit next to their field; a
 * post without the CSRF token changes nothing; a member is refused the page.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('an owner invites, changes a role, withdraws and removes; the last owner stays, in its words', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner', password: PASSWORD });
  const viewer = await ws.addMember({ role: 'viewer', name: 'Vic Viewer' });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const page = await person.get('/app/settings/members');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /aria-current="page">Members</);
  assert.match(page.body, /Olive Owner/);
  assert.match(page.body, /Vic Viewer/);
  const csrf = csrfOf(page.body);

  assert.equal((await person.post('/app/settings/members/invite', { email: 'grace@example.com', role: 'admin' })).statusCode, 403);
  const invited = await person.post('/app/settings/members/invite', { csrf, email: 'grace@example.com', role: 'admin' });
  assert.equal(invited.statusCode, 303);
  assert.equal(invited.headers.location, '/app/settings/members?done=invited');
  const members = async () =>
    (await harness.request('GET', '/v1/members', { token: ws.key })).body.members as {
      member_id: string;
      email: string;
      role: string;
      status: string;
    }[];
  const invitation = (await members()).find((m) => m.email === 'grace@example.com');
  assert.deepEqual([invitation?.role, invitation?.status], ['admin', 'invited']);
  const listed = await person.get('/app/settings/members?done=invited');
  assert.match(listed.body, /Invitation sent\./);
  assert.match(listed.body, /Pending invitations <span class="count">1<\/span>/);

  const bad = await person.post('/app/settings/members/invite', { csrf, email: 'not an address', role: 'member' });
  assert.equal(bad.statusCode, 400);
  assert.match(
    bad.body,
    /id="f-invite-email" name="email" type="email" value="not an address" aria-describedby="f-invite-email-error" aria-invalid="true"/,
  );
  const again = await person.post('/app/settings/members/invite', { csrf, email: viewer.email, role: 'member' });
  assert.equal(again.statusCode, 409);
  assert.match(again.body, /already a member of this workspace/);

  assert.equal((await person.post(`/app/settings/members/${viewer.memberId}/role`, { csrf, role: 'member' })).statusCode, 303);
  assert.equal((await members()).find((m) => m.member_id === viewer.memberId)?.role, 'member');

  const lastOwner = await person.post(`/app/settings/members/${owner.memberId}/role`, { csrf, role: 'admin' });
  assert.equal(lastOwner.statusCode, 409);
  assert.match(lastOwner.body, /<p class="alert" role="alert">[^<]*last owner/);
  assert.equal((await members()).find((m) => m.member_id === owner.memberId)?.role, 'owner');

  assert.equal(
    (await person.post(`/app/settings/members/${invitation?.member_id}/remove`, { csrf })).headers.location,
    '/app/settings/members?done=withdrawn',
  );
  const removed = await person.post(`/app/settings/members/${viewer.memberId}/remove`, { csrf });
  assert.equal(removed.headers.location, '/app/settings/members?done=removed');
  assert.deepEqual(
    (await members()).map((m) => m.email),
    [owner.email],
  );
});

test('an admin is offered no role above their own and is refused one; a member is refused the page', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner' });
  const admin = await ws.addMember({ role: 'admin', password: PASSWORD });
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, admin.email, PASSWORD);
  const page = await person.get('/app/settings/members');
  assert.doesNotMatch(page.body, /<option value="owner"/, 'owner is not offered');
  assert.doesNotMatch(page.body, new RegExp(`/app/settings/members/${owner.memberId}/remove`), 'the owner cannot be removed by an admin');
  const csrf = csrfOf(page.body);
  const above = await person.post('/app/settings/members/invite', { csrf, email: 'boss@example.com', role: 'owner' });
  assert.equal(above.statusCode, 403);
  assert.match(above.body, /nobody grants a role above their own/);
  const promote = await person.post(`/app/settings/members/${owner.memberId}/remove`, { csrf });
  assert.equal(promote.statusCode, 403);

  const someone = await signIn(harness.app, member.email, PASSWORD);
  assert.equal((await someone.get('/app/settings/members')).statusCode, 403);
  const refused = await someone.post(`/app/settings/members/${admin.memberId}/remove`, {
    csrf: csrfOf((await someone.get('/app/settings')).body),
  });
  assert.equal(refused.statusCode, 403);
  const list = (await harness.request('GET', '/v1/members', { token: ws.key })).body.members;
  assert.equal(list.length, 3);
});
