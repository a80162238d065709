/**
 * Redirect URIs (OAuth 2.1 §2.3.1, RFC 8252): which may be registered, and which an authorization
 * request may name: exactly a registered one, or a registered loopback http one on another port.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redirectUriMatches, redirectUriProblems } from './redirect-uris.ts';

test('https anywhere, http on loopback only, native apps’ own schemes; never a scheme that runs or reads locally', () => {
  for (const uri of [
    'https://claude.ai/api/mcp/auth_callback',
    'https://example.com/cb?source=mcp',
    'http://127.0.0.1:33418/',
    'http://localhost:6274/oauth/callback',
    'http://[::1]/callback',
    'com.example.assistant:/oauth/callback',
    'cursor://anysphere.cursor-retrieval/oauth/user-cuepoint/callback',
  ]) {
    assert.deepEqual(redirectUriProblems(uri), [], uri);
  }
  const refused: [string, RegExp][] = [
    ['', /is empty/],
    ['/callback', /not an absolute URI/],
    ['http://example.com/callback', /http on a host other than 127\.0\.0\.1/],
    ['http://127.0.0.1.example.com/cb', /http on a host other than/],
    ['https://example.com/cb#done', /fragment/],
    ['https://user:pass@example.com/cb', /user name or password/],
    ['javascript:alert(1)', /javascript: scheme/],
    ['data:text/html,hi', /data: scheme/],
    ['file:///etc/passwd', /file: scheme/],
    ['https://example.com/a b', /spaces or control characters/],
    ['https://example.com/\u0000', /spaces or control characters/],
    [`https://example.com/${'a'.repeat(2001)}`, /longer than 2000 characters/],
  ];
  for (const [uri, problem] of refused) {
    const problems = redirectUriProblems(uri);
    assert.ok(
      problems.some((text) => problem.test(text)),
      `${uri.slice(0, 60)}: ${problems.join('; ')}`,
    );
  }
});

test('a redirect URI matches exactly; a loopback http one on any port, the rest exactly', () => {
  const registered = [
    'https://claude.ai/api/mcp/auth_callback',
    'http://127.0.0.1/callback',
    'http://localhost:8080/cb?x=1',
    'http://[::1]/cb',
  ];
  const matching = [
    'https://claude.ai/api/mcp/auth_callback',
    'http://127.0.0.1/callback',
    'http://127.0.0.1:53682/callback',
    'http://localhost:1234/cb?x=1',
    'http://localhost/cb?x=1',
    'http://[::1]:9000/cb',
  ];
  for (const uri of matching) assert.equal(redirectUriMatches(registered, uri), true, uri);
  const refused = [
    'https://claude.ai/api/mcp/auth_callback/',
    'https://claude.ai/api/mcp/auth_callback?code=x',
    'https://CLAUDE.ai/api/mcp/auth_callback',
    'https://claude.ai:444/api/mcp/auth_callback',
    'http://claude.ai/api/mcp/auth_callback',
    'http://127.0.0.1:53682/callback/',
    'http://127.0.0.1:53682/other',
    'http://localhost:1234/cb',
    'http://localhost:1234/cb?x=2',
    'http://127.0.0.1:8080/cb?x=1',
    'https://127.0.0.1/callback',
    'http://[::1]:9000/cb#x',
    'not a uri',
  ];
  for (const uri of refused) assert.equal(redirectUriMatches(registered, uri), false, uri);
});
