/**
 * Catalog-wide security, generated for every operation and both transports (REST and MCP tools), so
 * an operation added tomorrow is covered the day it lands: 401 without a credential, 403 (with the
 * missing scope named) without its scope, and 404 for another workspace's ids — with that
 * workspace's rows left exactly as they were.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { catalog } from '../src/catalog.ts';
import { pathParams } from '../src/core/operation.ts';
import { SCOPES } from '../src/core/scopes.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import { startTestApp, type TestWorkspace } from './helpers/app.ts';
import { callTool, connectMcp, urlOf } from './helpers/mcp-client.ts';
import { idFields, restRequest } from './helpers/operation-request.ts';

/** How to make, in a workspace, the object an id field points to. Every id field in the catalog needs one. */
const ID_FIXTURES: Record<string, (ws: TestWorkspace) => Promise<string>> = {
  video_id: (ws) => ws.addVideo({ title: 'Victim video', tags: ['demo', 'secret'] }),
  folder_id: (ws) => ws.addFolder('Victim folder'),
  key_id: async (ws) => (await ws.mintKey({ scopes: ['videos:read'] })).id,
  endpoint_id: async (ws) => (await ws.addWebhookEndpoint()).id,
  delivery_id: async (ws) => ws.addWebhookDelivery((await ws.addWebhookEndpoint()).id),
};

async function snapshot(database: DatabaseHandle, workspaceId: string): Promise<string> {
  const tables = [
    'workspaces',
    'credentials',
    'folders',
    'videos',
    'video_stats',
    'events',
    'idempotency_keys',
    'webhook_endpoints',
    'webhook_deliveries',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const column = table === 'workspaces' ? 'id' : 'workspace_id';
    const rows = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} where ${sql.ref(column)} = ${workspaceId} order by 1`.execute(database.db);
    parts.push(`${table}:${JSON.stringify(rows.rows)}`);
  }
  return parts.join('\n');
}

test('every operation: 401 without a credential, 403 without its scope', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const a = await workspace();
  for (const op of catalog) {
    const input = { ...(op.example as Record<string, unknown>) };
    for (const field of idFields(op)) input[field] = '00000000-0000-4000-8000-000000000000';
    const req = restRequest(op, input);

    const anonymous = await request(req.method, req.url, { body: req.body });
    assert.equal(anonymous.status, 401, `${op.name} without credential`);
    assert.equal(anonymous.body.error.code, 'unauthorized');
    assert.match(String(anonymous.headers['www-authenticate']), /^Bearer realm="cuepoint"/);

    const lacking = await a.mintKey({ scopes: SCOPES.filter((s) => s !== op.scope) });
    const forbidden = await request(req.method, req.url, { token: lacking.key, body: req.body });
    assert.equal(forbidden.status, 403, `${op.name} without ${op.scope}: ${forbidden.raw}`);
    assert.equal(forbidden.body.error.code, 'forbidden');
    assert.equal(forbidden.body.error.details.required_scope, op.scope);
  }
});

test('every operation: another workspace’s ids are not_found, and its rows do not change', async (t) => {
  const { request, workspace, database } = await startTestApp(t);
  const attacker = await workspace();
  const victim = await workspace();
  const ids: Record<string, string> = {};
  for (const op of catalog) {
    for (const field of idFields(op)) {
      const make = ID_FIXTURES[field];
      assert.ok(make, `add an ID_FIXTURES entry for ${field} (used by ${op.name})`);
      ids[field] ??= await make(victim);
    }
  }
  const before = await snapshot(database, victim.id);
  for (const op of catalog) {
    const input = { ...(op.example as Record<string, unknown>) };
    for (const field of idFields(op)) input[field] = ids[field];
    const req = restRequest(op, input);
    const res = await request(req.method, req.url, { token: attacker.key, body: req.body });
    if (pathParams(op.path).some((p) => idFields(op).includes(p))) {
      assert.equal(res.status, 404, `${op.name} with another workspace's id: ${res.raw}`);
      assert.equal(res.body.error.code, 'not_found');
    } else if (res.status !== 404) {
      // Ids in filters or bodies must not reach across either: they are not_found (naming the id the
      // caller sent), or the call succeeds showing only the caller's own data.
      assert.ok(res.status < 500, `${op.name}: ${res.raw}`);
      assert.doesNotMatch(res.raw, new RegExp(Object.values(ids).join('|')), `${op.name} leaked another workspace's ids`);
    } else {
      assert.equal(res.body.error.code, 'not_found');
    }
  }
  assert.equal(await snapshot(database, victim.id), before, 'the other workspace changed');
});

test('every MCP tool: 401 without a credential, the scope error without its scope', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const a = await workspace();
  const base = await urlOf(app);
  for (const op of catalog) {
    const input = { ...(op.example as Record<string, unknown>) };
    for (const field of idFields(op)) input[field] = '00000000-0000-4000-8000-000000000000';
    const anonymous = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: op.name, arguments: input } }),
    });
    assert.equal(anonymous.status, 401, `${op.name} over MCP without credential`);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer realm="cuepoint"/);

    const lacking = await a.mintKey({ kind: 'assistant', scopes: SCOPES.filter((s) => s !== op.scope) });
    const client = await connectMcp(t, app, lacking.key);
    const result = await callTool(client, op.name, input);
    assert.equal(result.isError, true, `${op.name} without ${op.scope}`);
    assert.equal(result.structuredContent.error.code, 'forbidden');
    assert.equal(result.structuredContent.error.details.required_scope, op.scope);
  }
});

test('every MCP tool: another workspace’s ids are not_found, and its rows do not change', async (t) => {
  const { app, workspace, database } = await startTestApp(t);
  const attacker = await workspace();
  const victim = await workspace();
  const ids: Record<string, string> = {};
  for (const op of catalog)
    for (const field of idFields(op)) ids[field] ??= await (ID_FIXTURES[field] as (ws: TestWorkspace) => Promise<string>)(victim);
  const before = await snapshot(database, victim.id);
  const client = await connectMcp(t, app, attacker.key);
  for (const op of catalog) {
    const input = { ...(op.example as Record<string, unknown>) };
    for (const field of idFields(op)) input[field] = ids[field];
    const result = await callTool(client, op.name, input);
    const text = JSON.stringify(result);
    if (pathParams(op.path).some((p) => idFields(op).includes(p))) {
      assert.equal(result.isError, true, `${op.name} with another workspace's id: ${text}`);
      assert.equal(result.structuredContent.error.code, 'not_found');
    } else if (result.structuredContent?.error?.code !== 'not_found') {
      assert.doesNotMatch(text, new RegExp(Object.values(ids).join('|')), `${op.name} leaked another workspace's ids`);
    }
  }
  assert.equal(await snapshot(database, victim.id), before, 'the other workspace changed');
});
