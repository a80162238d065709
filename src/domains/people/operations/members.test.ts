/**
 * Members and roles (issue 27, DESIGN §10): list, invite, change and remove through the API; nobody
 * grants above their own role; the last owner stays; removal ends sessions and the keys the member
 * minted; a key acts with at most its minting member's role.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { browser, signIn } from '../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('list_members shows the people with their roles, then open invitations', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const owner = await ws.addMember({ role: 'owner', name: 'Olive Owner' });
  const viewer = await ws.addMember({ role: 'viewer', name: 'Vic Viewer' });
  const invited = await request('POST', '/v1/members', { token: ws.key, body: { email: '  Grace@Example.com ', role: 'admin' } });
  assert.equal(invited.status, 201, invited.raw);
  assert.equal(invited.body.status, 'invited');
  assert.equal(invited.body.email, 'grace@example.com');
  assert.equal(invited.body.role, 'admin');
  const list = await request('GET', '/v1/members', { token: ws.key });
  assert.equal(list.status, 200, list.raw);
  assert.deepEqual(
    list.body.members.map((m: { email: string; role: string; status: string }) => [m.email, m.role, m.status]),
    [
      [owner.email, 'owner', 'active'],
      [viewer.email, 'viewer', 'active'],
      ['grace@example.com', 'admin', 'invited'],
    ],
  );
  // Another workspace sees none of them.
  const other = await workspace();
  const theirs = await request('GET', '/v1/members', { token: other.key });
  assert.deepEqual(theirs.body.members, []);
});

test('inviting queues an email holding a one-time link; inviting again replaces it; a member cannot be invited', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const first = await request('POST', '/v1/members', { token: ws.key, body: { email: 'lin@example.com' } });
  assert.equal(first.body.role, 'member');
  const second = await request('POST', '/v1/members', { token: ws.key, body: { email: 'lin@example.com', role: 'viewer' } });
  assert.equal(second.status, 201);
  const open = (await request('GET', '/v1/members', { token: ws.key })).body.members.filter(
    (m: { status: string }) => m.status === 'invited',
  );
  assert.deepEqual(
    open.map((m: { member_id: string; role: string }) => [m.member_id, m.role]),
    [[second.body.member_id, 'viewer']],
  );
  const messages = await database.db.selectFrom('email_outbox').selectAll().where('workspace_id', '=', ws.id).execute();
  assert.equal(messages.length, 2);
  assert.ok(messages.every((m) => m.to_address === 'lin@example.com' && /\/invitations\/[A-Za-z0-9_-]{43}/.test(m.text_body)));
  const member = await ws.addMember({ email: 'taken@example.com' });
  const again = await request('POST', '/v1/members', { token: ws.key, body: { email: 'TAKEN@example.com' } });
  assert.equal(again.status, 409, again.raw);
  assert.equal(again.body.error.details.member_id, member.memberId);
});

test('nobody grants a role above their own; the last owner can be neither demoted nor removed', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const owner = await ws.addMember({ role: 'owner' });
  const admin = await ws.addMember({ role: 'admin', password: PASSWORD });
  // A key the admin minted acts as an admin.
  const adminKey = (await ws.mintKey({ createdByUser: admin.userId })).key;
  const asOwner = await request('POST', '/v1/members', { token: adminKey, body: { email: 'boss@example.com', role: 'owner' } });
  assert.equal(asOwner.status, 403, asOwner.raw);
  const promoteSelf = await request('PATCH', `/v1/members/${admin.memberId}`, { token: adminKey, body: { role: 'owner' } });
  assert.equal(promoteSelf.status, 403);
  const demoteOwner = await request('PATCH', `/v1/members/${owner.memberId}`, { token: adminKey, body: { role: 'viewer' } });
  assert.equal(demoteOwner.status, 403);
  // The command-line key acts as an owner, but the last owner stays.
  const lastDemoted = await request('PATCH', `/v1/members/${owner.memberId}`, { token: ws.key, body: { role: 'admin' } });
  assert.equal(lastDemoted.status, 409, lastDemoted.raw);
  assert.match(lastDemoted.body.error.message, /last owner/);
  assert.equal((await request('DELETE', `/v1/members/${owner.memberId}`, { token: ws.key })).status, 409);
  // With a second owner, the first may go.
  assert.equal((await request('PATCH', `/v1/members/${admin.memberId}`, { token: ws.key, body: { role: 'owner' } })).status, 200);
  const removed = await request('DELETE', `/v1/members/${owner.memberId}`, { token: ws.key });
  assert.equal(removed.status, 200, removed.raw);
  assert.equal(removed.body.removed, true);
});

test('removing a member ends their sessions at once and stops the keys they minted', async (t) => {
  const { app, request, workspace } = await startTestApp(t);
  const ws = await workspace();
  await ws.addMember({ role: 'owner' });
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(app, member.email, PASSWORD);
  assert.equal((await person.get('/app')).statusCode, 200);
  const theirKey = (await ws.mintKey({ createdByUser: member.userId })).key;
  assert.equal((await request('GET', '/v1/videos', { token: theirKey })).status, 200);
  assert.equal((await request('DELETE', `/v1/members/${member.memberId}`, { token: ws.key })).status, 200);
  assert.equal((await person.get('/app')).statusCode, 303, 'the session is over');
  const refused = await request('GET', '/v1/videos', { token: theirKey });
  assert.equal(refused.status, 401);
  assert.match(refused.body.error.message, /no longer belongs to the workspace/);
});

test('a key acts with at most the role of the member who minted it, and list_api_keys names them', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const viewer = await ws.addMember({ role: 'viewer', name: 'Vic Viewer' });
  const key = (await ws.mintKey({ createdByUser: viewer.userId })).key;
  assert.equal((await request('GET', '/v1/videos', { token: key })).status, 200);
  const write = await request('POST', '/v1/videos', { token: key, body: { title: 'Nope', source_url: 'https://example.com/a.mp4' } });
  assert.equal(write.status, 403, write.raw);
  const me = await request('GET', '/v1/workspace', { token: key });
  assert.equal(me.body.credential.role, 'viewer');
  assert.equal(me.body.credential.tier, 'read');
  const keys = await request('GET', '/v1/api-keys', { token: ws.key });
  const listed = keys.body.api_keys.find((k: { created_by: unknown }) => k.created_by !== null);
  assert.deepEqual(listed.created_by, { user_id: viewer.userId, name: 'Vic Viewer' });
  // Promoted, the same key can write.
  const membersList = await request('GET', '/v1/members', { token: ws.key });
  const memberId = membersList.body.members[0].member_id;
  assert.equal((await request('PATCH', `/v1/members/${memberId}`, { token: ws.key, body: { role: 'member' } })).status, 200);
  assert.equal((await request('GET', '/v1/workspace', { token: key })).body.credential.tier, 'write');
});

test('a person signed in acts with their role on the dashboard', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const viewer = await ws.addMember({ role: 'viewer', name: 'Vic Viewer', password: PASSWORD });
  const person = await signIn(app, viewer.email, PASSWORD);
  const home = await person.get('/app');
  assert.match(home.body, /Vic Viewer · viewer/);
  assert.match(home.body, /Latest videos/);
  assert.equal((await browser(app).get('/app')).statusCode, 303);
});
