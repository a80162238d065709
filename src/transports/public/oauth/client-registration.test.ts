/**
 * POST /oauth/register over HTTP (RFC 7591): a public client registered and stored; refusals in
 * OAuth's error body naming every problem, never cached; bodies of the wrong type, shape or size
 * refused before anything is written; CORS for browser-based clients.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../../test/helpers/app.ts';

const register = (body: string, contentType = 'application/json') => ({
  method: 'POST' as const,
  url: '/oauth/register',
  headers: { 'content-type': contentType, origin: 'https://inspector.example' },
  payload: body,
});

test('a client registers and gets its id, as a public client; the row is what it registered', async (t) => {
  const { app, database } = await startTestApp(t);
  const response = await app.inject(
    register(
      JSON.stringify({
        client_name: 'MCP Inspector',
        redirect_uris: ['http://localhost:6274/oauth/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_post',
      }),
    ),
  );
  assert.equal(response.statusCode, 201, response.body);
  assert.equal(response.headers['cache-control'], 'no-store');
  assert.equal(response.headers['access-control-allow-origin'], '*');
  const body = response.json();
  assert.match(body.client_id, /^cue_client_/);
  assert.ok(Math.abs(body.client_id_issued_at - Date.now() / 1000) < 60);
  assert.deepEqual(
    { ...body, client_id: undefined, client_id_issued_at: undefined },
    {
      client_id: undefined,
      client_id_issued_at: undefined,
      client_name: 'MCP Inspector',
      redirect_uris: ['http://localhost:6274/oauth/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  );
  assert.equal('client_secret' in body, false, 'no secret is ever issued');
  const row = await database.db.selectFrom('oauth_clients').selectAll().where('client_id', '=', body.client_id).executeTakeFirstOrThrow();
  assert.equal(row.registration, 'dynamic');
  assert.deepEqual(row.redirect_uris, ['http://localhost:6274/oauth/callback']);
});

test('refusals are OAuth error bodies that name every problem, and write nothing', async (t) => {
  const { app, database } = await startTestApp(t);
  const before = await database.db
    .selectFrom('oauth_clients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const cases: [ReturnType<typeof register>, number, string, RegExp][] = [
    [
      register(JSON.stringify({ client_name: '', redirect_uris: ['http://evil.example/cb', 'javascript:alert(1)'] })),
      400,
      'invalid_redirect_uri',
      /^redirect_uris\[0\] uses http on a host other than .*; redirect_uris\[1\] uses the javascript: scheme.*; client_name must be a non-empty string\.$/,
    ],
    [
      register(JSON.stringify({ redirect_uris: ['https://a.example/cb'], grant_types: ['password'] })),
      400,
      'invalid_client_metadata',
      /grant_types must be/,
    ],
    [register('{"redirect_uris": ['), 400, 'invalid_client_metadata', /not acceptable JSON/],
    [register('{"__proto__": {"x": 1}, "redirect_uris": ["https://a.example/cb"]}'), 400, 'invalid_client_metadata', /not acceptable JSON/],
    [register(`${'['.repeat(200)}${']'.repeat(200)}`), 400, 'invalid_client_metadata', /not acceptable JSON/],
    [register('[]'), 400, 'invalid_client_metadata', /must be a JSON object/],
    [
      register('redirect_uris=https://a.example/cb', 'application/x-www-form-urlencoded'),
      415,
      'invalid_client_metadata',
      /as application\/json/,
    ],
    [
      register(JSON.stringify({ client_name: 'x'.repeat(17 * 1024), redirect_uris: ['https://a.example/cb'] })),
      413,
      'invalid_client_metadata',
      /over 16 KiB/,
    ],
  ];
  for (const [request, status, error, description] of cases) {
    const response = await app.inject(request);
    assert.equal(response.statusCode, status, `${request.payload.slice(0, 60)}: ${response.body}`);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.headers['access-control-allow-origin'], '*');
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description']);
    assert.equal(body.error, error);
    assert.match(body.error_description, description);
  }
  const after = await database.db
    .selectFrom('oauth_clients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n));
});

test('a browser-based client may ask first (CORS preflight)', async (t) => {
  const { app } = await startTestApp(t);
  const response = await app.inject({
    method: 'OPTIONS',
    url: '/oauth/register',
    headers: {
      origin: 'https://inspector.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  assert.equal(response.statusCode, 204);
  assert.equal(response.headers['access-control-allow-origin'], '*');
  assert.equal(response.headers['access-control-allow-methods'], 'POST');
  assert.match(String(response.headers['access-control-allow-headers']), /Content-Type/i);
});
