/**
 * The weight of tools/list, which an assistant reads into its context: on average at most 1.5 KB a
 * tool (bytes of the HTTP answer to tools/list over the number of tools), for each tier of
 * credential, measured on the wire with the official SDK client. It was 4.3 KB a tool (117 KB for
 * an admin's 27 tools) while every tool carried its output schema and the error body's schema.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { apiOperations, catalog as everyOperation } from '../../src/catalog.ts';
import { TIER_SCOPES } from '../../src/core/scopes.ts';
import { startTestApp } from '../helpers/app.ts';
import { callTool, urlOf } from '../helpers/mcp-client.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

const BUDGET_BYTES_PER_TOOL = 1500;

/** An SDK client whose fetch counts the bytes of the answer to tools/list. */
async function listToolsOnTheWire(t: import('node:test').TestContext, base: string, token: string) {
  let bytes = 0;
  const counting: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    if (typeof init?.body === 'string' && (JSON.parse(init.body) as { method?: string }).method === 'tools/list') {
      bytes = Buffer.byteLength(await response.clone().text());
    }
    return response;
  };
  const client = new Client({ name: 'weight-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      fetch: counting,
    }),
  );
  t.after(() => client.close());
  const { tools } = await client.listTools();
  return { client, tools, bytes };
}

test('tools/list averages at most 1.5 KB a tool for every tier, with input schemas and descriptions in full', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const base = await urlOf(app);
  const keys = {
    admin: ws.key,
    write: (await ws.mintKey({ kind: 'assistant', scopes: [...TIER_SCOPES.write] })).key,
    read: (await ws.mintKey({ kind: 'assistant', scopes: [...TIER_SCOPES.read] })).key,
  };
  for (const [tier, key] of Object.entries(keys) as [keyof typeof TIER_SCOPES, string][]) {
    const { tools, bytes } = await listToolsOnTheWire(t, base, key);
    const expected = catalog.filter((op) => TIER_SCOPES[tier].includes(op.scope));
    assert.equal(tools.length, expected.length, tier);
    const average = bytes / tools.length;
    t.diagnostic(`${tier}: ${tools.length} tools, ${bytes} bytes, ${Math.round(average)} bytes a tool`);
    assert.ok(bytes > 0, `${tier}: the answer was measured`);
    assert.ok(
      average <= BUDGET_BYTES_PER_TOOL,
      `${tier}: ${Math.round(average)} bytes a tool is over the ${BUDGET_BYTES_PER_TOOL}-byte budget`,
    );
    // Nothing was cut to get there: every input schema and description is the catalog's own.
    for (const op of expected) {
      const tool = tools.find((candidate) => candidate.name === op.name);
      assert.ok(tool?.description?.startsWith(op.description), op.name);
      const { idempotency_key: _key, ...properties } = (tool?.inputSchema.properties ?? {}) as Record<string, unknown>;
      assert.deepEqual(properties, JSON.parse(JSON.stringify(op.input.properties)), op.name);
    }
  }
});

test('a result is sent once as structured content and once as compact JSON text', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  await ws.addVideo({ title: 'Compact' });
  const { client } = await listToolsOnTheWire(t, await urlOf(app), ws.key);
  const result = await callTool(client, 'list_videos', {});
  const text = (result.content[0] as { text: string }).text;
  assert.equal(text, JSON.stringify(result.structuredContent));
  const error = await callTool(client, 'get_video', { video_id: 'nope' });
  assert.equal(error.isError, true);
  assert.equal((error.content[0] as { text: string }).text, JSON.stringify(error.structuredContent));
});
