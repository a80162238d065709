/**
 * The MCP server over Streamable HTTP, driven by the official SDK client: one tool per operation with
 * the catalog's schemas and annotations, scope filtering, reads and writes through the shared
 * pipeline (idempotency, rate limit, isolation), error shapes, instructions, and the HTTP guards.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { test } from 'node:test';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { apiOperations, catalog as everyOperation } from '../../src/catalog.ts';
import { startTestApp } from '../helpers/app.ts';
import { callTool, connectMcp, urlOf } from '../helpers/mcp-client.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

test('tools/list is the catalog: names, schemas and annotations, and the same set as the OpenAPI operationIds', async (t) => {
  const { app, request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const client = await connectMcp(t, app, ws.key);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), catalog.map((op) => op.name).sort());
  const openapi = (await request('GET', '/v1/openapi.json')).body;
  const operationIds = Object.values(openapi.paths).flatMap((methods) =>
    Object.values(methods as Record<string, { operationId: string }>).map((o) => o.operationId),
  );
  assert.deepEqual(tools.map((tool) => tool.name).sort(), operationIds.sort());
  for (const op of catalog) {
    const tool = tools.find((candidate) => candidate.name === op.name);
    assert.ok(tool?.description?.includes(op.description), op.name);
    if (!tool) continue;
    assert.equal(tool.inputSchema.type, 'object');
    assert.deepEqual(
      Object.keys(tool.inputSchema.properties ?? {})
        .filter((k) => k !== 'idempotency_key')
        .sort(),
      Object.keys(op.input.properties).sort(),
    );
    assert.equal('idempotency_key' in (tool.inputSchema.properties ?? {}), op.write, `${op.name} idempotency_key only on writes`);
    // Results are the REST route's JSON, whose schema the OpenAPI document holds: none is repeated here.
    assert.equal(tool.outputSchema, undefined, op.name);
    assert.equal(tool.annotations?.readOnlyHint, !op.write, op.name);
    assert.equal(tool.annotations?.destructiveHint, op.destructive === true, op.name);
    assert.equal(tool.annotations?.openWorldHint, false);
  }
  assert.equal(tools.find((tool) => tool.name === 'delete_api_key')?.annotations?.destructiveHint, true);
});

test('tools/list shows only what the credential may use; calling another tool still answers the scope error', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const reader = await ws.mintKey({ kind: 'assistant', scopes: ['videos:read', 'workspace:read'] });
  const client = await connectMcp(t, app, reader.key);
  const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
  assert.deepEqual(
    names,
    catalog
      .filter((op) => ['videos:read', 'workspace:read'].includes(op.scope))
      .map((op) => op.name)
      .sort(),
  );
  const denied = await callTool(client, 'update_video', { video_id: await ws.addVideo(), title: 'x' });
  assert.equal(denied.isError, true);
  assert.equal(denied.structuredContent.error.code, 'forbidden');
  assert.equal(denied.structuredContent.error.details.required_scope, 'videos:write');
});

test('a read tool returns the same data as REST, as structured content and as text', async (t) => {
  const { app, request, workspace } = await startTestApp(t);
  const ws = await workspace();
  await ws.addVideo({ title: 'Tour', tags: ['product'] });
  await ws.addVideo({ title: 'Pricing', tags: ['sales'] });
  const client = await connectMcp(t, app, ws.key);
  const result = await callTool(client, 'list_videos', { tags: ['product'] });
  assert.equal(result.isError, undefined);
  const rest = await request('GET', '/v1/videos?tags=product', { token: ws.key });
  assert.deepEqual(result.structuredContent, rest.body);
  assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), rest.body);
});

test('a write tool runs in the pipeline: idempotency_key replays, a different call with it conflicts, events are recorded', async (t) => {
  const { app, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  const video = await ws.addVideo({ title: 'Draft' });
  const client = await connectMcp(t, app, ws.key);
  const first = await callTool(client, 'update_video', { video_id: video, title: 'Final', idempotency_key: 'mcp-1' });
  assert.equal(first.structuredContent.title, 'Final');
  const replay = await callTool(client, 'update_video', { video_id: video, title: 'Final', idempotency_key: 'mcp-1' });
  assert.deepEqual(replay.structuredContent, first.structuredContent);
  const conflict = await callTool(client, 'update_video', { video_id: video, title: 'Other', idempotency_key: 'mcp-1' });
  assert.equal(conflict.isError, true);
  assert.equal(conflict.structuredContent.error.code, 'conflict');
  const events = await database.db.selectFrom('events').select('type').where('workspace_id', '=', ws.id).execute();
  assert.deepEqual(
    events.map((e) => e.type),
    ['video.updated'],
  );
  const created = await callTool(client, 'create_api_key', { name: 'From an assistant', scope: 'read', idempotency_key: 'k-1' });
  assert.match(created.structuredContent.key, /^cue_live_/);
});

test('REST and MCP calls drain one rate-limit budget per credential', async (t) => {
  const { app, request, workspace } = await startTestApp(t, { rateLimitOverride: 4 });
  const ws = await workspace();
  const client = await connectMcp(t, app, ws.key);
  assert.equal((await request('GET', '/v1/workspace', { token: ws.key })).status, 200);
  assert.equal((await callTool(client, 'get_workspace')).isError, undefined);
  assert.equal((await request('GET', '/v1/tags', { token: ws.key })).status, 200);
  assert.equal((await callTool(client, 'list_tags')).isError, undefined);
  const limited = await callTool(client, 'get_workspace');
  assert.equal(limited.isError, true);
  assert.equal(limited.structuredContent.error.code, 'rate_limited');
  assert.equal((await request('GET', '/v1/workspace', { token: ws.key })).status, 429);
});

test('errors: invalid input and other workspaces’ ids are tool errors; unknown tools are protocol errors', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const other = await workspace();
  const foreign = await other.addVideo();
  const client = await connectMcp(t, app, ws.key);
  await client.listTools();
  const invalid = await callTool(client, 'list_videos', { limit: 1000, colour: 'red' });
  assert.equal(invalid.isError, true);
  assert.equal(invalid.structuredContent.error.code, 'invalid_request');
  assert.deepEqual(invalid.structuredContent.error.details.errors.map((e: { field: string }) => e.field).sort(), ['colour', 'limit']);
  const hidden = await callTool(client, 'get_video', { video_id: foreign });
  assert.equal(hidden.isError, true);
  assert.equal(hidden.structuredContent.error.code, 'not_found');
  await assert.rejects(client.callTool({ name: 'drop_everything', arguments: {} }), /-32602|Unknown tool/);
});

test('malformed tools/call params are -32602 in sentences, on every tool, never -32603 with a validator’s issue list', async (t) => {
  const { app, workspace } = await startTestApp(t, { rateLimitOverride: 1_000_000 });
  const ws = await workspace();
  const base = await urlOf(app);
  let id = 0;
  // Raw JSON-RPC over POST /mcp: the shapes an SDK client would never send.
  const rpc = async (method: string, params: unknown) => {
    const sent = ++id;
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${ws.key}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: sent, method, ...(params === undefined ? {} : { params }) }),
    });
    const body = (await res.json()) as { id: unknown; error?: { code: number; message: string; data?: { errors: { field: string }[] } } };
    return { status: res.status, sent, body };
  };
  const failures: string[] = [];
  const expect = async (what: string, method: string, params: unknown, message: RegExp, fields: string[]) => {
    const { status, sent, body } = await rpc(method, params);
    const error = body.error;
    const found = [
      status === 200 ? '' : `HTTP ${status}`,
      body.id === sent ? '' : `id ${String(body.id)}`,
      error?.code === ErrorCode.InvalidParams ? '' : `code ${error?.code}`,
      message.test(error?.message ?? '') ? '' : `message ${JSON.stringify(error?.message)}`,
      // A sentence, not a validator's issue list.
      /invalid_type|"path"|\[\n/.test(error?.message ?? '') ? 'an issue list' : '',
      JSON.stringify(error?.data?.errors.map((e) => e.field)) === JSON.stringify(fields) ? '' : `fields ${JSON.stringify(error?.data)}`,
    ].filter(Boolean);
    if (found.length > 0) failures.push(`${what}: ${found.join(', ')}`);
  };
  const argumentsMust =
    /^Invalid params for tools\/call: params\.arguments must be an object holding the tool's arguments by name, as its inputSchema describes, or be left out; it is (an array|a string|null|a number)\.$/;
  for (const op of catalog) {
    for (const args of [[], 'limit=10', null, 5]) {
      await expect(`${op.name} arguments ${JSON.stringify(args)}`, 'tools/call', { name: op.name, arguments: args }, argumentsMust, [
        'params.arguments',
      ]);
    }
  }
  await expect(
    'no params',
    'tools/call',
    undefined,
    /^Invalid params for tools\/call: params are required: the name of the tool and its arguments/,
    ['params'],
  );
  await expect('params an array', 'tools/call', [], /params must be an object, the parameters by name, or be left out; it is an array\.$/, [
    'params',
  ]);
  await expect('params a string', 'tools/call', 'list_videos', /params must be an object.*; it is a string\.$/, ['params']);
  await expect('no name', 'tools/call', { arguments: {} }, /params\.name is required: the tool to call, as tools\/list names it/, [
    'params.name',
  ]);
  await expect('name a number', 'tools/call', { name: 5 }, /params\.name must be a string, .*; it is a number\.$/, ['params.name']);
  await expect(
    'both wrong, both named',
    'tools/call',
    { name: true, arguments: [1] },
    /params\.name must be a string.*; params\.arguments must be an object/,
    ['params.name', 'params.arguments'],
  );
  await expect('_meta a number', 'tools/call', { name: 'list_videos', _meta: 5 }, /params\._meta must be an object/, ['params._meta']);
  await expect('tools/list params an array', 'tools/list', [], /^Invalid params for tools\/list: params must be an object/, ['params']);
  await expect('tools/list cursor a number', 'tools/list', { cursor: 5 }, /params\.cursor must be a string/, ['params.cursor']);
  assert.deepEqual(failures, []);

  // Well-formed calls still work, and an unknown method is still "Method not found".
  const listed = await rpc('tools/call', { name: 'list_videos', arguments: { limit: 1 } });
  assert.equal(
    (listed.body as { result?: { structuredContent?: unknown } }).result?.structuredContent !== undefined,
    true,
    JSON.stringify(listed.body),
  );
  const unknown = await rpc('prompts/list', {});
  assert.deepEqual(unknown.body.error, { code: ErrorCode.MethodNotFound, message: 'Method not found' });

  // The official client gets the same error, as an McpError it can read.
  const client = await connectMcp(t, app, ws.key);
  const refused = await client
    .request(
      { method: 'tools/call', params: { name: 'list_videos', arguments: [] as unknown as Record<string, unknown> } },
      CallToolResultSchema,
    )
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  assert.ok(refused instanceof McpError, String(refused));
  assert.equal(refused.code, ErrorCode.InvalidParams);
  assert.match(refused.message, /params\.arguments must be an object holding the tool's arguments by name/);
  assert.deepEqual(
    (refused.data as { errors: { field: string }[] }).errors.map((e) => e.field),
    ['params.arguments'],
  );
});

test('initialize carries the workspace guidance for assistants in the instructions', async (t) => {
  const { app, workspace, database } = await startTestApp(t);
  const ws = await workspace();
  await database.db.updateTable('workspaces').set({ assistant_guidance: 'Always answer in French.' }).where('id', '=', ws.id).execute();
  const client = await connectMcp(t, app, ws.key);
  assert.match(client.getInstructions() ?? '', /Always answer in French\./);
  assert.equal(client.getServerVersion()?.name, 'cuepoint');
});

test('HTTP guards: 401 with WWW-Authenticate before MCP, Host and Origin checks, POST only, protected-resource metadata', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace();
  const base = await urlOf(app);
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  const post = (headers: Record<string, string>) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      body: initialize,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });

  const anonymous = await post({});
  assert.equal(anonymous.status, 401);
  assert.match(
    anonymous.headers.get('www-authenticate') ?? '',
    /^Bearer realm="cuepoint", resource_metadata="http:\/\/localhost:3000\/\.well-known\/oauth-protected-resource\/mcp", scope="videos:read videos:write [a-z: ]+ workspace:manage"$/,
  );
  const bad = await post({ authorization: 'Bearer cue_live_nope' });
  assert.equal(bad.status, 401);

  const ok = await post({ authorization: `Bearer ${ws.key}` });
  assert.equal(ok.status, 200);
  assert.equal(((await ok.json()) as { result: { protocolVersion: string } }).result.protocolVersion, '2025-11-25');
  assert.equal((await post({ authorization: `Bearer ${ws.key}`, origin: 'https://evil.example.com' })).status, 403);
  // fetch() will not send a forged Host header; node:http will.
  const rebound = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${base}/mcp`, {
      method: 'POST',
      headers: {
        host: 'evil.example.com',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${ws.key}`,
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(initialize);
  });
  assert.equal(rebound, 403);

  const get = await fetch(`${base}/mcp`, { headers: { authorization: `Bearer ${ws.key}` } });
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    const metadata = (await (await fetch(`${base}${path}`)).json()) as {
      resource: string;
      authorization_servers: string[];
      scopes_supported: string[];
    };
    assert.equal(metadata.resource, 'http://localhost:3000/mcp');
    assert.deepEqual(metadata.authorization_servers, ['http://localhost:3000'], 'Cuepoint is its own authorization server');
    assert.ok(metadata.scopes_supported.includes('videos:read'));
  }
});
