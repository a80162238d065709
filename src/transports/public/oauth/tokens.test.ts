/**
 * The token endpoint, revocation and the metadata over HTTP (issue 29): a code becomes an hour's
 * assistant token bound to /mcp (refused by /v1), listed by list_api_keys under the client's name and
 * the person who allowed it, and a refresh token used once; a replayed code or a reused refresh token
 * ends the grant; delete_api_key, leaving the workspace and revocation stop it; refusals are RFC 6749
 * bodies; every grant, refused refresh and end is an audit event.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { ASSISTANT_REDIRECT, allowAssistant, MCP_RESOURCE, redeem, tokenRequest } from '../../../../test/helpers/oauth.ts';
import { OWN_ORIGIN } from '../../../../test/helpers/people.ts';

/** An MCP initialize with `token`: the status says whether /mcp let it in. */
async function mcpStatus(harness: TestApp, token: string) {
  const response = await harness.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      authorization: `Bearer ${token}`,
      host: 'localhost:3000',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  return { status: response.statusCode, challenge: response.headers['www-authenticate'] as string | undefined, body: response.body };
}

const auditActions = async (harness: TestApp, workspaceId: string) =>
  (
    await harness.database.db
      .selectFrom('audit_events')
      .select(['action', 'origin_transport', 'actor_kind'])
      .where('workspace_id', '=', workspaceId)
      .where('action', 'like', 'assistant.%')
      .orderBy('at')
      .execute()
  ).map((row) => `${row.action} (${row.actor_kind}, ${row.origin_transport})`);

test('a code becomes an hour’s token for /mcp only, listed under the client and the person, and a refresh token', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const allowed = await allowAssistant(harness, ws, { scopes: ['videos:read', 'leads:read'], clientName: 'Claude' });
  const tokens = await redeem(harness, allowed);
  assert.match(tokens.access_token, /^cue_asst_/);
  assert.match(tokens.refresh_token, /^cue_rt_[A-Za-z0-9_-]{43}$/);
  assert.equal(tokens.token_type, 'Bearer');
  assert.equal(tokens.expires_in, 3600);
  assert.equal(tokens.scope, 'videos:read leads:read');

  assert.equal((await mcpStatus(harness, tokens.access_token)).status, 200);
  const v1 = await harness.request('GET', '/v1/videos', { token: tokens.access_token });
  assert.equal(v1.status, 401, 'a token bound to /mcp is refused by /v1 (RFC 8707)');
  assert.match(v1.body.error.message, /issued for http:\/\/localhost:3000\/mcp and works only there/);

  const keys = await harness.request('GET', '/v1/api-keys', { token: ws.key });
  const listed = keys.body.api_keys.find((key: { kind: string; resource: string | null }) => key.resource !== null);
  assert.equal(listed.name, 'Claude');
  assert.equal(listed.kind, 'assistant');
  assert.deepEqual(listed.scopes, ['videos:read', 'leads:read']);
  assert.deepEqual(listed.created_by, { user_id: allowed.member.userId, name: 'Ada Allower' });
  assert.equal(listed.resource, MCP_RESOURCE);
  assert.ok(Date.parse(listed.expires_at) > Date.now() + 29 * 24 * 3600 * 1000, 'listed until the grant itself would end');
  assert.deepEqual(await auditActions(harness, ws.id), ['assistant.connected (user, oauth)']);

  const metadata = await harness.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
  assert.equal(metadata.headers['access-control-allow-origin'], '*');
  const document = metadata.json();
  assert.equal(document.issuer, OWN_ORIGIN);
  assert.equal(document.token_endpoint, `${OWN_ORIGIN}/oauth/token`);
  assert.equal(document.revocation_endpoint, `${OWN_ORIGIN}/oauth/revoke`);
  assert.deepEqual(document.code_challenge_methods_supported, ['S256']);
  assert.equal(document.client_id_metadata_document_supported, true);
  assert.equal(document.authorization_response_iss_parameter_supported, true);
});

test('a refresh rotates both tokens; presenting a used refresh token again ends the whole grant', async (t) => {
  let now = new Date('2026-07-01T10:00:00Z');
  const harness = await startTestApp(t, { clock: () => now });
  const ws = await harness.workspace();
  const allowed = await allowAssistant(harness, ws);
  const first = await redeem(harness, allowed);
  const refresh = (refreshToken: string, clientId = allowed.clientId) =>
    tokenRequest(harness, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

  now = new Date(now.getTime() + 3600_000 + 1000);
  const expired = await mcpStatus(harness, first.access_token);
  assert.equal(expired.status, 401);
  assert.match(expired.challenge ?? '', /error="invalid_token"/);
  assert.match(expired.body, /access token expired .* use the refresh token/);

  assert.equal((await refresh(first.refresh_token, 'cue_client_someone-else')).json().error, 'invalid_grant');
  const second = await refresh(first.refresh_token);
  assert.equal(second.statusCode, 200, second.body);
  assert.equal(second.headers['cache-control'], 'no-store');
  const rotated = second.json();
  assert.notEqual(rotated.access_token, first.access_token);
  assert.notEqual(rotated.refresh_token, first.refresh_token);
  assert.equal((await mcpStatus(harness, rotated.access_token)).status, 200);

  // The first refresh token again: someone holds a copy. Everything the grant gave stops.
  const reused = await refresh(first.refresh_token);
  assert.equal(reused.statusCode, 400);
  assert.equal(reused.json().error, 'invalid_grant');
  assert.match(reused.json().error_description, /already used, so it may have been stolen/);
  assert.equal((await mcpStatus(harness, rotated.access_token)).status, 401);
  assert.equal((await refresh(rotated.refresh_token)).json().error, 'invalid_grant');
  assert.deepEqual(await auditActions(harness, ws.id), [
    'assistant.connected (user, oauth)',
    'assistant.refresh_failed (assistant, oauth)',
    'assistant.disconnected (assistant, oauth)',
    'assistant.refresh_failed (assistant, oauth)',
  ]);
});

test('a code presented twice ends what it gave; a wrong verifier, redirect URI or resource spends it', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const allowed = await allowAssistant(harness, ws);
  const redemption = (changes: Record<string, string>) =>
    tokenRequest(harness, {
      grant_type: 'authorization_code',
      client_id: allowed.clientId,
      code: allowed.code,
      redirect_uri: ASSISTANT_REDIRECT,
      code_verifier: allowed.verifier,
      ...changes,
    });
  const tokens = await redeem(harness, allowed);
  const replay = await redemption({});
  assert.equal(replay.statusCode, 400);
  assert.deepEqual(replay.json(), { error: 'invalid_grant', error_description: 'The code was already used.' });
  assert.equal((await mcpStatus(harness, tokens.access_token)).status, 401, 'the tokens of a replayed code stop');
  assert.ok((await auditActions(harness, ws.id)).includes('assistant.disconnected (assistant, oauth)'));

  const mismatches: [Record<string, string>, RegExp][] = [
    [{ code_verifier: 'x'.repeat(43) }, /code_verifier does not match/],
    [{ redirect_uri: 'https://assistant.example/other' }, /redirect_uri must be the one/],
    [{ resource: 'https://elsewhere.example/mcp' }, /resource must be/],
  ];
  for (const [changes, description] of mismatches) {
    const fresh = await allowAssistant(harness, ws, { clientId: allowed.clientId, member: allowed.member });
    const wrong = await tokenRequest(harness, {
      grant_type: 'authorization_code',
      client_id: fresh.clientId,
      code: fresh.code,
      redirect_uri: ASSISTANT_REDIRECT,
      code_verifier: fresh.verifier,
      ...changes,
    });
    assert.equal(wrong.json().error, 'invalid_grant');
    assert.match(wrong.json().error_description, description);
    const retried = await redeem(harness, fresh).catch((error: Error) => error);
    assert.ok(retried instanceof Error, 'a code refused once is spent');
  }
});

test('delete_api_key and leaving the workspace stop a connected assistant, and its refresh', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const connected = await allowAssistant(harness, ws);
  const deleted = await redeem(harness, connected);
  const keys = await harness.request('GET', '/v1/api-keys', { token: ws.key });
  const key = keys.body.api_keys.find((k: { resource: string | null }) => k.resource !== null);
  assert.equal((await harness.request('DELETE', `/v1/api-keys/${key.key_id}`, { token: ws.key })).status, 200);
  assert.equal((await mcpStatus(harness, deleted.access_token)).status, 401);
  const afterDelete = await tokenRequest(harness, {
    grant_type: 'refresh_token',
    refresh_token: deleted.refresh_token,
    client_id: connected.clientId,
  });
  assert.equal(afterDelete.json().error, 'invalid_grant');
  assert.match(afterDelete.json().error_description, /The connection was ended/);

  const member = await allowAssistant(harness, ws, { role: 'member' });
  const tokens = await redeem(harness, member);
  assert.equal((await mcpStatus(harness, tokens.access_token)).status, 200);
  const removed = await harness.request('DELETE', `/v1/members/${member.member.memberId}`, { token: ws.key });
  assert.equal(removed.status, 200, removed.raw);
  assert.equal((await mcpStatus(harness, tokens.access_token)).status, 401);
  const refresh = await tokenRequest(harness, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token,
    client_id: member.clientId,
  });
  assert.equal(refresh.json().error, 'invalid_grant');
  assert.match(refresh.json().error_description, /no longer belongs to the workspace/);
});

test('revocation (RFC 7009) ends the grant by either token, answers 200 for unknown ones, and names missing parameters', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const byRefresh = await allowAssistant(harness, ws);
  const first = await redeem(harness, byRefresh);
  const revoke = (fields: Record<string, string>) => tokenRequest(harness, fields, '/oauth/revoke');
  assert.equal((await revoke({ token: first.refresh_token, client_id: 'cue_client_another' })).statusCode, 200);
  assert.equal((await mcpStatus(harness, first.access_token)).status, 200, 'another client cannot revoke it');
  const revoked = await revoke({ token: first.refresh_token, token_type_hint: 'refresh_token', client_id: byRefresh.clientId });
  assert.equal(revoked.statusCode, 200);
  assert.equal((await mcpStatus(harness, first.access_token)).status, 401);

  const byAccess = await allowAssistant(harness, ws, { clientId: byRefresh.clientId, member: byRefresh.member });
  const second = await redeem(harness, byAccess);
  assert.equal((await revoke({ token: second.access_token, client_id: byRefresh.clientId })).statusCode, 200);
  const refreshed = await tokenRequest(harness, {
    grant_type: 'refresh_token',
    refresh_token: second.refresh_token,
    client_id: byRefresh.clientId,
  });
  assert.equal(refreshed.json().error, 'invalid_grant');

  assert.equal((await revoke({ token: 'nothing-we-issued', client_id: byRefresh.clientId })).statusCode, 200);
  const missing = await revoke({});
  assert.equal(missing.statusCode, 400);
  assert.deepEqual(missing.json(), {
    error: 'invalid_request',
    error_description: 'token is required; client_id is required (a public client names itself).',
  });
  assert.equal(
    (await auditActions(harness, ws.id)).filter((action) => action.startsWith('assistant.disconnected')).length,
    2,
    'each revocation is an audit event',
  );
});

test('the token endpoint refuses in RFC 6749’s words, and takes only forms', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const allowed = await allowAssistant(harness, ws);
  const cases: [Record<string, string> | [string, string][], number, string, RegExp][] = [
    [{}, 400, 'invalid_request', /grant_type must be/],
    [{ grant_type: 'password', client_id: allowed.clientId }, 400, 'unsupported_grant_type', /authorization_code or refresh_token/],
    [{ grant_type: 'authorization_code' }, 400, 'invalid_request', /client_id is required/],
    [{ grant_type: 'authorization_code', client_id: 'cue_client_nobody', code: 'x' }, 401, 'invalid_client', /no client has the id/],
    [
      { grant_type: 'authorization_code', client_id: allowed.clientId },
      400,
      'invalid_request',
      /code, redirect_uri, code_verifier are required/,
    ],
    [{ grant_type: 'refresh_token', client_id: allowed.clientId }, 400, 'invalid_request', /refresh_token is required/],
    [{ grant_type: 'refresh_token', client_id: allowed.clientId, refresh_token: 'cue_rt_x' }, 400, 'invalid_grant', /not recognised/],
    [
      [
        ['grant_type', 'authorization_code'],
        ['code', 'a'],
        ['code', 'b'],
      ],
      400,
      'invalid_request',
      /code must be given once/,
    ],
  ];
  for (const [fields, status, error, description] of cases) {
    const response = await tokenRequest(harness, fields);
    assert.equal(response.statusCode, status, JSON.stringify(fields));
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.json().error, error, response.body);
    assert.match(response.json().error_description, description);
  }
  const json = await harness.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ grant_type: 'authorization_code' }),
  });
  assert.equal(json.statusCode, 400);
  assert.equal(json.json().error, 'invalid_request');
  const huge = await tokenRequest(harness, { grant_type: 'refresh_token', refresh_token: 'x'.repeat(40_000) });
  assert.equal(huge.statusCode, 413);
  assert.equal(huge.json().error, 'invalid_request');
  const preflight = await harness.app.inject({ method: 'OPTIONS', url: '/oauth/token', headers: { origin: 'https://inspector.example' } });
  assert.equal(preflight.statusCode, 204);
  assert.equal(preflight.headers['access-control-allow-origin'], '*');
});
