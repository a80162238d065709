/**
 * Both MCP protocol eras on one endpoint (issue 29): the MCP SDK v2 client negotiating with
 * `server/discover` gets the 2026-07-28 revision, with no `initialize` and no session, and the same
 * tools and results as before (scopes, structured results, errors in words); a client pinned to the
 * 2025 handshake, and the v1 SDK client, still get 2025-11-25. A request naming a revision the server
 * does not serve is told which it does (-32022).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { startTestApp } from '../helpers/app.ts';
import { connectMcp, urlOf } from '../helpers/mcp-client.ts';

test('a 2026-07-28 client discovers, lists and calls tools with no handshake; 2025 clients go on as before', {
  timeout: 120_000,
}, async (t) => {
  const harness = await startTestApp(t);
  const base = await urlOf(harness.app);
  const ws = await harness.workspace();
  await ws.addVideo({ title: 'Pricing walkthrough' });
  await harness.request('PATCH', '/v1/workspace', { token: ws.key, body: { assistant_guidance: 'Answer in French.' } });
  const reader = await ws.mintKey({ scopes: ['videos:read'] });

  const modern = new ClientV2({ name: 'modern-assistant', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new TransportV2(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${reader.key}` } } });
  await modern.connect(transport);
  t.after(() => modern.close());
  assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
  assert.match(modern.getInstructions() ?? '', /Guidance from this workspace:\nAnswer in French\./);
  const tools = (await modern.listTools()).tools.map((tool) => tool.name);
  assert.ok(tools.includes('list_videos'));
  assert.ok(!tools.includes('create_folder'), 'only what the key’s scopes allow');
  const listed = await modern.callTool({ name: 'list_videos', arguments: { limit: 5 } });
  assert.equal(listed.isError, undefined, JSON.stringify(listed));
  assert.match(JSON.stringify(listed.structuredContent), /Pricing walkthrough/);
  const refused = await modern.callTool({ name: 'create_folder', arguments: { name: 'x' } });
  assert.equal(refused.isError, true);
  assert.match(JSON.stringify(refused.structuredContent), /insufficient_scope|scope/);
  const invalid = await modern.callTool({ name: 'get_video', arguments: { video_id: 'not-an-id' } });
  assert.equal(invalid.isError, true);

  const pinnedLegacy = new ClientV2({ name: 'legacy-assistant', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await pinnedLegacy.connect(
    new TransportV2(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${reader.key}` } } }),
  );
  t.after(() => pinnedLegacy.close());
  assert.equal(pinnedLegacy.getNegotiatedProtocolVersion(), '2025-11-25');
  assert.ok((await pinnedLegacy.listTools()).tools.some((tool) => tool.name === 'list_videos'));

  const v1 = await connectMcp(t, harness.app, reader.key);
  assert.ok((await v1.listTools()).tools.some((tool) => tool.name === 'list_videos'));

  // A revision nobody serves, claimed in the envelope: -32022 names the ones this server speaks.
  const unknown = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${reader.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2099-01-01',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2099-01-01',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
  });
  const answer = (await unknown.json()) as { error?: { code: number; message: string; data?: unknown } };
  assert.equal(answer.error?.code, -32022, JSON.stringify(answer));
  assert.match(JSON.stringify(answer.error?.data), /2026-07-28/);
});
