/**
 * Client metadata as a client registers it (RFC 7591) or its metadata document states it: every
 * problem named at once, public clients only, a document held to the stricter rules.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readClientMetadata } from './client-metadata.ts';

test('a registration of what assistants send is read; a client without a name is shown by its redirect host', () => {
  const claude = readClientMetadata({
    client_name: '  Claude  ',
    redirect_uris: ['https://claude.ai/api/mcp/auth_callback', 'https://claude.ai/api/mcp/auth_callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_post',
    client_uri: 'https://claude.ai',
    scope: 'videos:read',
  });
  assert.deepEqual(claude, {
    ok: true,
    metadata: { clientName: 'Claude', clientUri: 'https://claude.ai', redirectUris: ['https://claude.ai/api/mcp/auth_callback'] },
  });
  const nameless = readClientMetadata({ redirect_uris: ['http://localhost:6274/oauth/callback'] });
  assert.ok(nameless.ok);
  assert.equal(nameless.metadata.clientName, 'localhost:6274');
});

test('every problem is named at once; a bad redirect URI makes it invalid_redirect_uri', () => {
  const reading = readClientMetadata({
    client_name: 7,
    redirect_uris: ['http://example.com/cb', 'https://ok.example/cb', 42],
    grant_types: ['client_credentials'],
    response_types: ['token'],
    token_endpoint_auth_method: 'private_key_jwt',
    client_uri: 'http://example.com',
  });
  assert.equal(reading.ok, false);
  assert.ok(!reading.ok);
  assert.equal(reading.code, 'invalid_redirect_uri');
  assert.deepEqual(reading.problems, [
    'redirect_uris[0] uses http on a host other than 127.0.0.1, [::1] or localhost: use https',
    'redirect_uris[2] must be a string',
    'client_name must be a non-empty string',
    'client_uri must be an https URL',
    'grant_types must be an array of authorization_code, refresh_token',
    'response_types must be an array of code',
    'token_endpoint_auth_method must be one of none, client_secret_basic, client_secret_post (every client here is public: none)',
  ]);
  for (const [body, problem] of [
    [null, 'the metadata must be a JSON object'],
    [[], 'the metadata must be a JSON object'],
    [{}, 'redirect_uris must be a non-empty array of URIs'],
    [{ redirect_uris: [] }, 'redirect_uris must be a non-empty array of URIs'],
    [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://e.example/${i}`) }, 'redirect_uris must list at most 10 URIs'],
    [{ client_name: 'x'.repeat(201), redirect_uris: ['https://e.example/cb'] }, 'client_name must be at most 200 characters'],
    [{ client_name: 'a\u0007b', redirect_uris: ['https://e.example/cb'] }, 'client_name must not contain control characters'],
  ] as const) {
    const refused = readClientMetadata(body);
    assert.ok(!refused.ok);
    assert.deepEqual(refused.problems, [problem], JSON.stringify(body).slice(0, 80));
  }
});

test('a metadata document must name the client, and may not claim a secret', () => {
  const refused = readClientMetadata(
    { redirect_uris: ['https://e.example/cb'], token_endpoint_auth_method: 'client_secret_basic', client_secret: 's' },
    { document: true },
  );
  assert.ok(!refused.ok);
  assert.equal(refused.code, 'invalid_client_metadata');
  assert.deepEqual(refused.problems, [
    'client_name is required',
    'token_endpoint_auth_method must be none in a client ID metadata document: a public document cannot keep a secret',
    'a client ID metadata document must not contain a client_secret',
  ]);
  const accepted = readClientMetadata(
    {
      client_id: 'https://e.example/client.json',
      client_name: 'E',
      redirect_uris: ['https://e.example/cb'],
      token_endpoint_auth_method: 'none',
    },
    { document: true },
  );
  assert.ok(accepted.ok);
});
