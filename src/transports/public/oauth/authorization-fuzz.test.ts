/**
 * A fuzz pass over /oauth/authorize: every parameter of the request, and every field of the consent
 * form, sent hostile values (alone and repeated), signed out and signed in, by GET and POST. Whatever
 * arrives, the answer is a page, a 4xx or a redirect, never a 5xx; a redirect goes only to sign-in or
 * to the client's registered redirect URI; and no code is issued but for a whole, allowed form.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';
import { HOSTILE } from '../../../../test/helpers/hostile-inputs.ts';
import { csrfOf, OWN_ORIGIN, signIn } from '../../../../test/helpers/people.ts';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'https://assistant.example/cb';

const VALUES: string[] = [
  ...HOSTILE.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))),
  'a\ud800b',
  '\u202eevil',
  'x'.repeat(2001),
  'x'.repeat(20_000),
  'https://evil.example/cb',
  'javascript:alert(1)',
  'http://127.0.0.1:1/cb',
  '%00%0d%0a',
  'Ada\r\nLocation: https://evil.example',
];

test('hostile authorization requests and consent forms never get a 5xx, and never redirect anywhere unregistered', {
  timeout: 600_000,
}, async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const registered = await harness.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'Fuzzed', redirect_uris: [REDIRECT] }),
  });
  const clientId = registered.json().client_id as string;
  const valid: Record<string, string> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'videos:read',
    state: 's',
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
    resource: `${OWN_ORIGIN}/mcp`,
  };
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const csrf = csrfOf((await person.get(`/oauth/authorize?${new URLSearchParams(valid)}`)).body);

  const failures: string[] = [];
  const check = (what: string, response: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    if (response.statusCode >= 500) failures.push(`${what}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    const location = response.headers.location;
    if (typeof location === 'string' && !location.startsWith('/sign-in?next=') && !location.startsWith(`${REDIRECT}?`)) {
      failures.push(`${what}: redirected to ${location.slice(0, 200)}`);
    }
  };

  for (const name of Object.keys(valid)) {
    for (const value of VALUES) {
      for (const cookie of [undefined, person.cookie]) {
        const single = new URLSearchParams({ ...valid, [name]: value });
        const repeated = new URLSearchParams(valid);
        repeated.append(name, value);
        for (const search of [single, repeated]) {
          const url = `/oauth/authorize?${search}`;
          const response = await harness.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
          check(`GET ${name}=${value.slice(0, 40)}`, response);
        }
      }
      const form = new URLSearchParams({ ...valid, csrf, workspace_id: ws.id, grant: 'videos:read', decision: 'allow', [name]: value });
      const response = await harness.app.inject({
        method: 'POST',
        url: '/oauth/authorize',
        headers: { cookie: person.cookie as string, origin: OWN_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form.toString(),
      });
      check(`POST ${name}=${value.slice(0, 40)}`, response);
    }
  }
  for (const value of VALUES) {
    for (const field of ['workspace_id', 'grant', 'decision', 'csrf']) {
      const hostileField = new URLSearchParams({
        ...valid,
        csrf,
        workspace_id: ws.id,
        grant: 'videos:read',
        decision: 'allow',
        [field]: value,
      });
      const response = await harness.app.inject({
        method: 'POST',
        url: '/oauth/authorize',
        headers: {
          cookie: person.cookie as string,
          origin: OWN_ORIGIN,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: hostileField.toString(),
      });
      check(`POST ${field}=${value.slice(0, 40)}`, response);
    }
  }
  for (const [payload, contentType] of [
    ['{"client_id":"x"}', 'application/json'],
    ['client_id=%E0%A4%A', 'application/x-www-form-urlencoded'],
    [`state=${'x'.repeat(70_000)}`, 'application/x-www-form-urlencoded'],
    ['', 'text/plain'],
  ] as const) {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/oauth/authorize',
      headers: { cookie: person.cookie as string, origin: OWN_ORIGIN, 'content-type': contentType },
      payload,
    });
    check(`POST body ${payload.slice(0, 30)} as ${contentType}`, response);
    assert.ok(response.statusCode < 500);
  }
  assert.deepEqual(failures, []);

  // Only forms whose every field was right issued a code: those where the hostile value was a harmless state or scope.
  const codes = await harness.database.db.selectFrom('oauth_codes').select(['scopes']).where('client_id', '=', clientId).execute();
  assert.ok(codes.every((code) => code.scopes.length === 1 && code.scopes[0] === 'videos:read'));
});

test('hostile token and revocation requests never get a 5xx, and get OAuth error bodies', { timeout: 600_000 }, async (t) => {
  const harness = await startTestApp(t);
  const registered = await harness.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'Fuzzed', redirect_uris: [REDIRECT] }),
  });
  const clientId = registered.json().client_id as string;
  const failures: string[] = [];
  const send = async (path: string, fields: URLSearchParams) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: fields.toString(),
    });
    if (response.statusCode >= 500)
      failures.push(`${path} ${fields.toString().slice(0, 120)}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    else if (response.statusCode >= 400 && typeof response.json().error !== 'string')
      failures.push(`${path}: not an OAuth error body: ${response.body.slice(0, 200)}`);
  };
  const token = { grant_type: 'authorization_code', client_id: clientId, code: 'c', redirect_uri: REDIRECT, code_verifier: 'v'.repeat(43) };
  const refresh = { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'cue_rt_x' };
  const revoke = { token: 'x', client_id: clientId };
  for (const [path, base] of [
    ['/oauth/token', token],
    ['/oauth/token', refresh],
    ['/oauth/revoke', revoke],
  ] as const) {
    for (const name of [...Object.keys(base), 'resource', 'scope']) {
      for (const value of VALUES) {
        await send(path, new URLSearchParams({ ...base, [name]: value }));
        const repeated = new URLSearchParams(base);
        repeated.append(name, value);
        await send(path, repeated);
      }
    }
  }
  assert.deepEqual(failures, []);
});
