/**
 * The API keys tab (issue 28): an admin mints a key with scopes ticked as checkboxes, sees its secret
 * once (never cached), the key works through the API with those scopes, and revoking it stops it;
 * a member is offered nothing and refused; no scope ticked and a blank name come back as problems.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../../test/helpers/app.ts';
import { csrfOf, signIn } from '../../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';

test('an admin mints a key shown once, it works with its scopes, and revoking stops it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const admin = await ws.addMember({ role: 'admin', name: 'Ada Admin', password: PASSWORD });
  const person = await signIn(harness.app, admin.email, PASSWORD);
  const page = await person.get('/app/settings/api-keys');
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /name="scope" value="workspace:manage"/);
  const csrf = csrfOf(page.body);

  assert.equal((await person.post('/app/settings/api-keys', { name: 'CRM sync', scope: 'videos:read' })).statusCode, 403);
  const none = await person.post('/app/settings/api-keys', { csrf, name: 'CRM sync' });
  assert.equal(none.statusCode, 400);
  assert.match(none.body, /Choose at least one scope\./);
  assert.match(none.body, /value="CRM sync"/);
  const blank = await harness.app.inject({
    method: 'POST',
    url: '/app/settings/api-keys',
    remoteAddress: person.address,
    headers: { cookie: person.cookie as string, origin: 'http://localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
    payload: `csrf=${encodeURIComponent(csrf)}&name=%20&scope=videos%3Aread&scope=leads%3Aread`,
  });
  assert.equal(blank.statusCode, 400);
  assert.match(blank.body, /id="f-key-name-error"/);
  assert.match(blank.body, /value="leads:read" checked/, 'the ticked scopes stay ticked');

  const minted = await harness.app.inject({
    method: 'POST',
    url: '/app/settings/api-keys',
    remoteAddress: person.address,
    headers: { cookie: person.cookie as string, origin: 'http://localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
    payload: `csrf=${encodeURIComponent(csrf)}&name=CRM+sync&scope=videos%3Aread&scope=leads%3Aread`,
  });
  assert.equal(minted.statusCode, 201);
  assert.equal(minted.headers['cache-control'], 'no-store');
  const secret = /id="new-secret" class="secret" type="text" readonly value="([^"]+)"/.exec(minted.body)?.[1] as string;
  assert.ok(secret, 'the secret is on the page');
  assert.match(minted.body, /This is the only time it is shown/);
  assert.equal((await harness.request('GET', '/v1/videos', { token: secret })).status, 200);
  assert.equal((await harness.request('GET', '/v1/workspace', { token: secret })).status, 403, 'only the scopes ticked');

  const listed = await person.get('/app/settings/api-keys');
  assert.ok(!listed.body.includes(secret), 'never shown again');
  const keys = (await harness.request('GET', '/v1/api-keys', { token: ws.key })).body.api_keys;
  const key = keys.find((k: { name: string }) => k.name === 'CRM sync');
  assert.deepEqual(key.scopes, ['videos:read', 'leads:read']);
  assert.deepEqual(key.created_by, { user_id: admin.userId, name: 'Ada Admin' });
  assert.match(listed.body, new RegExp(`/app/settings/api-keys/${key.key_id}/revoke`));

  const revoked = await person.post(`/app/settings/api-keys/${key.key_id}/revoke`, { csrf });
  assert.equal(revoked.headers.location, '/app/settings/api-keys?done=revoked');
  assert.equal((await harness.request('GET', '/v1/videos', { token: secret })).status, 401);
});

test('a member is refused the keys page and the mint', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const member = await ws.addMember({ role: 'member', password: PASSWORD });
  const person = await signIn(harness.app, member.email, PASSWORD);
  assert.equal((await person.get('/app/settings/api-keys')).statusCode, 403);
  const csrf = csrfOf((await person.get('/app/settings')).body);
  const refused = await person.post('/app/settings/api-keys', { csrf, name: 'Sneaky', scope: 'videos:read' });
  assert.equal(refused.statusCode, 403);
  const keys = (await harness.request('GET', '/v1/api-keys', { token: ws.key })).body.api_keys;
  assert.ok(!keys.some((k: { name: string }) => k.name === 'Sneaky'));
});
