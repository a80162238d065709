/**
 * Authentication over HTTP: every way a credential can be missing or bad is a 401 with a Bearer
 * challenge; revocation and expiry take effect on the very next request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.ts';
import { generateToken } from '../secrets/tokens.ts';

test('missing, malformed, unknown, revoked and expired credentials are 401 with WWW-Authenticate', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const cases: [string, Record<string, string>, string][] = [
    ['missing', {}, 'Bearer realm="cuepoint"'],
    ['not bearer', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'Bearer realm="cuepoint", error="invalid_token"'],
    [
      'bad checksum',
      { authorization: `Bearer ${ws.key.slice(0, -1)}${ws.key.endsWith('A') ? 'B' : 'A'}` },
      'Bearer realm="cuepoint", error="invalid_token"',
    ],
    ['unknown', { authorization: `Bearer ${generateToken('api_key').token}` }, 'Bearer realm="cuepoint", error="invalid_token"'],
    [
      'wrong prefix',
      { authorization: `Bearer ${ws.key.replace('cue_live_', 'cue_asst_')}` },
      'Bearer realm="cuepoint", error="invalid_token"',
    ],
  ];
  for (const [name, headers, challenge] of cases) {
    const res = await request('GET', '/v1/workspace', { headers });
    assert.equal(res.status, 401, name);
    assert.equal(res.body.error.code, 'unauthorized', name);
    assert.equal(res.headers['www-authenticate'], challenge, name);
    assert.ok(res.body.error.request_id, name);
  }
  const inQuery = await request('GET', `/v1/workspace?access_token=${ws.key}`);
  assert.equal(inQuery.status, 401, 'a key in the query string is not a credential');
});

test('revocation and expiry take effect on the next request', async (t) => {
  // The app's clock is moved past the expiry instead of waiting for it, which a busy machine could overshoot.
  let now = new Date();
  const { request, workspace } = await startTestApp(t, { clock: () => now });
  const ws = await workspace();
  const doomed = await ws.mintKey({ scopes: ['workspace:read'] });
  assert.equal((await request('GET', '/v1/workspace', { token: doomed.key })).status, 200);
  const revoked = await request('DELETE', `/v1/api-keys/${doomed.id}`, { token: ws.key });
  assert.equal(revoked.status, 200, revoked.raw);
  assert.equal(revoked.body.revoked, true);
  const after = await request('GET', '/v1/workspace', { token: doomed.key });
  assert.equal(after.status, 401);
  assert.match(after.body.error.message, /revoked/);
  assert.equal((await request('DELETE', `/v1/api-keys/${doomed.id}`, { token: ws.key })).status, 404, 'already revoked');

  const expiring = await ws.mintKey({ scopes: ['workspace:read'], expiresAt: new Date(now.getTime() + 60_000) });
  assert.equal((await request('GET', '/v1/workspace', { token: expiring.key })).status, 200);
  now = new Date(now.getTime() + 60_000);
  const expired = await request('GET', '/v1/workspace', { token: expiring.key });
  assert.equal(expired.status, 401);
  assert.match(expired.body.error.message, /expired/);
});

test('assistant tokens authenticate like API keys', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const assistant = await ws.mintKey({ kind: 'assistant', scopes: ['workspace:read', 'videos:read'] });
  assert.match(assistant.key, /^cue_asst_/);
  const res = await request('GET', '/v1/workspace', { token: assistant.key });
  assert.equal(res.status, 200, res.raw);
  assert.deepEqual(res.body.credential, {
    key_id: assistant.id,
    kind: 'assistant',
    role: 'owner',
    tier: 'read',
    scopes: ['videos:read', 'workspace:read'],
  });
});
