/**
 * The Connected assistants tab (issue 29): an owner sees each assistant people allowed, by its
 * client's name, with who allowed it, and Disconnect stops it (a pasted API key is not listed); a
 * member is refused the tab and the disconnect; a form without the session's token changes nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { allowAssistant, redeem } from '../../../../../test/helpers/oauth.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('an owner sees connected assistants and who allowed them, and Disconnect stops one', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const allowed = await allowAssistant(harness, ws, { clientName: 'Claude', scopes: ['videos:read', 'leads:read'] });
  const tokens = await redeem(harness, allowed);
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);

  const page = await person.get('/app/settings/assistants');
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.body, /<strong>Claude<\/strong>/);
  assert.match(page.body, /<td>Ada Allower<\/td>/);
  assert.match(page.body, /2 permissions/);
  assert.match(page.body, /value="http:\/\/localhost:3000\/mcp"/);
  assert.equal((page.body.match(/<tr><td><strong>/g) ?? []).length, 1, 'the workspace’s pasted key is not an assistant');
  const keyId = /action="\/app\/settings\/assistants\/([0-9a-f-]+)\/disconnect"/.exec(page.body)?.[1] as string;
  assert.ok(keyId);

  const csrf = csrfOf(page.body);
  assert.equal((await person.post(`/app/settings/assistants/${keyId}/disconnect`, { csrf: 'forged' })).statusCode, 403);
  const disconnected = await person.post(`/app/settings/assistants/${keyId}/disconnect`, { csrf });
  assert.equal(disconnected.headers.location, '/app/settings/assistants?done=disconnected');
  const after = await person.get('/app/settings/assistants?done=disconnected');
  assert.match(after.body, /Assistant disconnected\./);
  assert.match(after.body, /No assistant is connected/);
  const refresh = await harness.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: allowed.clientId,
    }).toString(),
  });
  assert.equal(refresh.json().error, 'invalid_grant', 'a disconnected assistant cannot renew itself');
});

test('a member is refused the tab and the disconnect', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const allowed = await allowAssistant(harness, ws);
  await redeem(harness, allowed);
  const keyId = (await harness.request('GET', '/v1/api-keys', { token: ws.key })).body.api_keys.find(
    (key: { resource: string | null }) => key.resource !== null,
  ).key_id;
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  assert.equal((await person.get('/app/settings/assistants')).statusCode, 403);
  assert.doesNotMatch((await person.get('/app/settings')).body, /Connected assistants/);
  const csrf = csrfOf((await person.get('/app/settings')).body);
  assert.equal((await person.post(`/app/settings/assistants/${keyId}/disconnect`, { csrf })).statusCode, 403);
  const still = (await harness.request('GET', '/v1/api-keys', { token: ws.key })).body.api_keys;
  assert.ok(still.some((key: { key_id: string }) => key.key_id === keyId));
});
