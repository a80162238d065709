/**
 * Authorization requests: the client and redirect URI judged before anything is sent back to it;
 * then each refusal, with state, for the client; PKCE S256 only; the resource only this service's
 * MCP endpoint; scopes known ones only. And PKCE's verifier check itself.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { ClientLookup, OAuthClient } from '../clients/clients.queries.ts';
import { authorizationResponseUrl, readAuthorizationRequest } from './authorization-request.ts';
import { pkceChallengeProblems, verifierMatches } from './pkce.ts';

const RESOURCE = 'https://cuepoint.example/mcp';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

const client: OAuthClient = {
  clientId: 'cue_client_abc',
  registration: 'dynamic',
  clientName: 'Claude',
  clientUri: null,
  redirectUris: ['https://claude.ai/api/mcp/auth_callback', 'http://127.0.0.1/callback'],
  createdAt: new Date(),
};
const lookup = async (clientId: string): Promise<ClientLookup> =>
  clientId === client.clientId ? { ok: true, client } : { ok: false, problems: [`no client has the id "${clientId}"`] };
const read = (query: Record<string, unknown>) => readAuthorizationRequest(query, { lookup, resource: RESOURCE });
const good = {
  client_id: client.clientId,
  redirect_uri: 'http://127.0.0.1:43117/callback',
  response_type: 'code',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  state: 'xyz',
  scope: 'videos:read analytics:read videos:read offline_access',
  resource: 'HTTPS://Cuepoint.example/mcp/',
};

test('a good request is read: the loopback redirect on its port, known scopes once, sorted, the resource ours', async () => {
  assert.deepEqual(await read(good), {
    kind: 'valid',
    request: {
      client,
      redirectUri: 'http://127.0.0.1:43117/callback',
      state: 'xyz',
      scopes: ['videos:read', 'analytics:read'],
      codeChallenge: CHALLENGE,
      resource: RESOURCE,
    },
  });
  const minimal = await read({ ...good, state: undefined, scope: undefined, resource: undefined });
  assert.equal(minimal.kind, 'valid');
  assert.ok(minimal.kind === 'valid');
  assert.deepEqual([minimal.request.state, minimal.request.scopes, minimal.request.resource], [null, [], RESOURCE]);
});

test('an unknown client or a redirect URI it did not register is never redirected to', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ ...good, client_id: undefined }, 'client_id is required'],
    [{ ...good, client_id: ['a', 'b'] }, 'client_id must be given once'],
    [{ ...good, client_id: 'cue_client_nobody' }, 'no client has the id "cue_client_nobody"'],
    [{ ...good, redirect_uri: 'https://evil.example/steal' }, 'redirect_uri https://evil.example/steal is not one the client registered'],
    [{ ...good, redirect_uri: undefined }, 'redirect_uri is required: the client has several'],
    [{ ...good, redirect_uri: 'x'.repeat(2001) }, 'redirect_uri is longer than 2000 characters'],
    [{ ...good, client_id: 'cue\u0000x' }, 'client_id may hold only printable ASCII characters (percent-encode the rest)'],
  ];
  for (const [query, problem] of cases) {
    // A bad client or redirect URI wins over every other problem of the request.
    assert.deepEqual(await read({ ...query, response_type: 'token', code_challenge_method: 'plain' }), {
      kind: 'unanswerable',
      problems: [problem],
    });
  }
});

test('every other problem goes back to the client, with its state: no code without PKCE S256', async () => {
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ response_type: 'token' }, 'unsupported_response_type', /^response_type must be code, not token\.$/],
    [{ response_type: undefined }, 'unsupported_response_type', /^response_type must be code\.$/],
    [{ code_challenge_method: 'plain' }, 'invalid_request', /code_challenge_method "plain" is not supported: only S256/],
    [{ code_challenge_method: undefined }, 'invalid_request', /code_challenge_method is required and must be S256/],
    [{ code_challenge: undefined }, 'invalid_request', /code_challenge is required \(PKCE, S256\)/],
    [{ code_challenge: 'short' }, 'invalid_request', /43-character base64url SHA-256/],
    [{ code_challenge: [CHALLENGE, CHALLENGE] }, 'invalid_request', /code_challenge must be given once/],
    [{ resource: 'https://cuepoint.example/v1' }, 'invalid_target', /resource must be https:\/\/cuepoint\.example\/mcp/],
    [{ resource: 'https://other.example/mcp' }, 'invalid_target', /the only resource/],
    [{ resource: 'https://cuepoint.example/mcp?x=1' }, 'invalid_target', /the only resource/],
    [{ scope: 'videos:read videos:fly' }, 'invalid_scope', /^unknown scopes: videos:fly\.$/],
    [{ scope: 'videos:read\nleads:read' }, 'invalid_scope', /scope may hold only printable ASCII/],
  ];
  for (const [change, error, description] of cases) {
    const reading = await read({ ...good, ...change });
    assert.equal(reading.kind, 'refused', JSON.stringify(change));
    assert.ok(reading.kind === 'refused');
    assert.equal(reading.error, error);
    assert.match(reading.description, description);
    assert.equal(reading.state, 'xyz');
    assert.equal(reading.redirectUri, 'http://127.0.0.1:43117/callback');
  }
});

test('the response URL keeps the registered query and adds the parameters, iss among them', () => {
  assert.equal(
    authorizationResponseUrl('http://localhost:8080/cb?x=1', { code: 'c&d', state: 'a b', iss: 'https://cuepoint.example', missing: null }),
    'http://localhost:8080/cb?x=1&code=c%26d&state=a+b&iss=https%3A%2F%2Fcuepoint.example',
  );
  assert.equal(
    authorizationResponseUrl('cursor://anysphere.cursor-retrieval/oauth/callback', { code: 'c' }),
    'cursor://anysphere.cursor-retrieval/oauth/callback?code=c',
  );
});

test('PKCE: S256 only; the verifier must be the one the challenge was made from', () => {
  assert.deepEqual(pkceChallengeProblems(CHALLENGE, 'S256'), []);
  assert.equal(verifierMatches(VERIFIER, CHALLENGE), true);
  assert.equal(verifierMatches(`${VERIFIER.slice(0, -1)}Y`, CHALLENGE), false);
  assert.equal(
    verifierMatches('too-short', createHash('sha256').update('too-short').digest('base64url')),
    false,
    'RFC 7636: 43 to 128 characters',
  );
  assert.equal(verifierMatches(CHALLENGE, CHALLENGE), false, 'the challenge itself is not the verifier');
  assert.equal(verifierMatches(undefined, CHALLENGE), false);
  assert.equal(verifierMatches(`${VERIFIER} `, CHALLENGE), false);
});
