/**
 * The official MCP SDK's OAuth client against /mcp (issue 29): it meets the 401, reads the
 * protected-resource and authorization-server metadata, registers itself (RFC 7591), sends the person
 * to the consent page with PKCE S256 and the resource; the person allows; the SDK redeems the code and
 * its calls go through with the scopes allowed. An hour later its token has expired and the SDK
 * renews it with the refresh token on its own; the pasted key of the same workspace still works.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startTestApp } from '../helpers/app.ts';
import { consentTo } from '../helpers/oauth.ts';
import { signIn } from '../helpers/people.ts';
import { freePort } from '../helpers/server-process.ts';

const PASSWORD = 'correct horse battery staple';

/** What an assistant keeps between calls: its registration, the PKCE verifier, its tokens; and where it sent the person. */
class RememberingProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  sentTo: URL | undefined;
  readonly redirectUrl = 'http://127.0.0.1:43999/callback';
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.sentTo = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

test('the MCP SDK connects through OAuth, calls with what was allowed, and renews its token by itself', { timeout: 120_000 }, async (t) => {
  let now = new Date();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The SDK checks the metadata's resource against the URL it connects to: the service must know its address.
  const harness = await startTestApp(t, { publicUrl: base, clock: () => now });
  await harness.app.listen({ host: '127.0.0.1', port });
  const ws = await harness.workspace();
  await ws.addVideo({ title: 'Onboarding' });
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });

  const provider = new RememberingProvider();
  const mcpUrl = new URL(`${base}/mcp`);
  const first = new Client({ name: 'sdk-assistant', version: '1.0.0' });
  await assert.rejects(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })), UnauthorizedError);
  assert.match(String(provider.client?.client_id), /^cue_client_/, 'it registered itself');
  const sentTo = provider.sentTo as URL;
  assert.equal(`${sentTo.origin}${sentTo.pathname}`, `${base}/oauth/authorize`);
  assert.equal(sentTo.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(sentTo.searchParams.get('resource'), `${base}/mcp`);

  const person = await signIn(harness.app, owner.email, PASSWORD);
  const back = new URL(await consentTo(harness, person, `${sentTo.pathname}${sentTo.search}`, ws.id, ['videos:read']));
  assert.equal(back.searchParams.get('iss'), base);
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await transport.finishAuth(back.searchParams.get('code') as string);
  assert.match(provider.saved?.access_token ?? '', /^cue_asst_/);
  assert.equal(provider.saved?.scope, 'videos:read');

  const client = new Client({ name: 'sdk-assistant', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  assert.ok(tools.includes('list_videos'));
  assert.ok(!tools.includes('create_video'), 'tools beyond the scopes allowed are not offered');
  const listed = await client.callTool({ name: 'list_videos', arguments: {} });
  assert.equal(listed.isError, undefined, JSON.stringify(listed));
  assert.match(JSON.stringify(listed.structuredContent), /Onboarding/);

  // An hour on, the access token has expired: the SDK refreshes and goes on, without the person.
  const firstAccess = provider.saved?.access_token;
  now = new Date(now.getTime() + 3600_000 + 60_000);
  const renewed = new Client({ name: 'sdk-assistant', version: '1.0.0' });
  await renewed.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  t.after(() => renewed.close());
  assert.ok((await renewed.callTool({ name: 'list_videos', arguments: {} })).structuredContent);
  assert.notEqual(provider.saved?.access_token, firstAccess, 'a new token');

  // The pasted key works as before, and the OAuth token is refused by /v1.
  assert.equal((await harness.request('GET', '/v1/videos', { token: ws.key })).status, 200);
  assert.equal((await harness.request('GET', '/v1/videos', { token: provider.saved?.access_token as string })).status, 401);
});

test('the MCP SDK v2 client connects through OAuth on the 2026-07-28 revision, and checks iss', { timeout: 120_000 }, async (t) => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const harness = await startTestApp(t, { publicUrl: base });
  await harness.app.listen({ host: '127.0.0.1', port });
  const ws = await harness.workspace();
  await ws.addVideo({ title: 'Quarterly review' });
  const owner = await ws.addMember({ role: 'owner', password: PASSWORD });
  const person = await signIn(harness.app, owner.email, PASSWORD);
  const mcpUrl = new URL(`${base}/mcp`);

  /** Connects until the SDK sends the person to consent; answers where the consent page sent them back. */
  const allowVia = async (provider: RememberingProvider) => {
    const client = new ClientV2({ name: 'sdk-v2-assistant', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await assert.rejects(client.connect(new TransportV2(mcpUrl, { authProvider: provider as never })));
    const sentTo = provider.sentTo as URL;
    return new URL(await consentTo(harness, person, `${sentTo.pathname}${sentTo.search}`, ws.id, ['videos:read']));
  };

  // A callback whose iss is not the issuer the metadata named is refused by the client (RFC 9207).
  const wary = new RememberingProvider();
  const forged = await allowVia(wary);
  forged.searchParams.set('iss', 'https://impostor.example');
  await assert.rejects(new TransportV2(mcpUrl, { authProvider: wary as never }).finishAuth(forged.searchParams), /iss|issuer/i);
  assert.equal(wary.saved, undefined, 'no token for a callback from another issuer');

  const provider = new RememberingProvider();
  const back = await allowVia(provider);
  const transport = new TransportV2(mcpUrl, { authProvider: provider as never });
  await transport.finishAuth(back.searchParams);
  assert.match(provider.saved?.access_token ?? '', /^cue_asst_/);
  const client = new ClientV2({ name: 'sdk-v2-assistant', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  t.after(() => client.close());
  assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
  const listed = await client.callTool({ name: 'list_videos', arguments: {} });
  assert.match(JSON.stringify(listed.structuredContent), /Quarterly review/);
});
