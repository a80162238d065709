/**
 * The dashboard's own actions (Operation.dashboardOnly: delete_video, erase_lead, DESIGN §10) are
 * catalog operations that no key or token reaches: never a /v1 route (`DELETE /v1/videos/{id}` and
 * `DELETE /v1/leads/{id}` keep answering 405 with Allow), never an MCP tool (not listed, not callable),
 * not in the OpenAPI document, and refused by the pipeline itself for an admin API key or an assistant
 * token, so a transport that forgot to leave them out would still not run them. A signed-in person runs
 * them (their own suites: delete-video.test.ts, erase-lead.test.ts).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { apiOperations, catalog } from '../src/catalog.ts';
import { createPipeline } from '../src/core/pipeline/pipeline.ts';
import { pipelineDeps } from '../src/dependencies.ts';
import { buildOpenApiDocument } from '../src/transports/rest/openapi.ts';
import { startTestApp } from './helpers/app.ts';
import { callTool, connectMcp } from './helpers/mcp-client.ts';

const DASHBOARD_ONLY = catalog.filter((op) => op.dashboardOnly);
const quiet = { info() {}, warn() {}, error() {} };

/** The operation's REST path with ids of the workspace's own video and lead filled in. */
function pathOf(path: string, ids: { video: string; lead: string }): string {
  return path
    .replace('{video_id}', ids.video)
    .replace('{lead_id}', ids.lead)
    .replace(/\{[a-z_]+\}/g, randomUUID());
}

test('the dashboard-only operations are the destructive actions of owners and admins', () => {
  assert.ok(DASHBOARD_ONLY.some((op) => op.name === 'delete_video'));
  assert.ok(DASHBOARD_ONLY.some((op) => op.name === 'erase_lead'));
  for (const op of DASHBOARD_ONLY) {
    assert.equal(op.scope, 'workspace:manage', op.name);
    assert.ok(!apiOperations(catalog).includes(op), op.name);
  }
  for (const name of ['delete_video', 'erase_lead']) {
    const op = DASHBOARD_ONLY.find((candidate) => candidate.name === name);
    assert.deepEqual([op?.method, op?.write, op?.destructive], ['DELETE', true, true], name);
  }
});

test('on /v1 they answer 405 with Allow where the API has the path, 404 where it has not; DELETE /v1/videos/{id} and /v1/leads/{id} change nothing', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace('business');
  const ids = { video: await ws.addVideo(), lead: await ws.addLead() };
  for (const url of [`/v1/videos/${ids.video}`, `/v1/leads/${ids.lead}`]) {
    const res = await request('DELETE', url, { token: ws.key });
    assert.equal(res.status, 405, res.raw);
    assert.equal(res.headers.allow, 'GET, PATCH, HEAD');
    assert.equal(res.body.error.code, 'method_not_allowed');
  }
  const apiPaths = new Set(apiOperations(catalog).map((op) => op.path));
  for (const op of DASHBOARD_ONLY) {
    const res = await request(op.method, `/v1${pathOf(op.path, ids)}`, { token: ws.key });
    if (!apiPaths.has(op.path)) {
      // reveal_lead's path is the dashboard's alone: /v1 has no such route at all.
      assert.equal(res.status, 404, `${op.name}: ${res.raw}`);
      continue;
    }
    assert.equal(res.status, 405, `${op.name}: ${res.raw}`);
    assert.ok(!String(res.headers.allow).split(', ').includes(op.method), `${op.name}: Allow ${res.headers.allow}`);
  }
  assert.equal((await request('GET', `/v1/videos/${ids.video}`, { token: ws.key })).status, 200, 'the video is still there');
  assert.equal((await request('GET', `/v1/leads/${ids.lead}`, { token: ws.key })).status, 200, 'the lead is still there');
});

test('over MCP they are not listed, and calling them is an unknown tool', async (t) => {
  const { app, workspace } = await startTestApp(t);
  const ws = await workspace('business');
  const ids = { video: await ws.addVideo(), lead: await ws.addLead() };
  const client = await connectMcp(t, app, ws.key);
  const { tools } = await client.listTools();
  assert.ok(tools.length > 40, `an admin key sees the catalog: ${tools.length} tools`);
  for (const op of DASHBOARD_ONLY) {
    assert.ok(!tools.some((tool) => tool.name === op.name), `${op.name} is not listed`);
    const args = op.name === 'delete_video' ? { video_id: ids.video } : { lead_id: ids.lead };
    await assert.rejects(
      callTool(client, op.name, args),
      (error: unknown) => error instanceof McpError && /Unknown tool/.test(error.message),
    );
  }
});

test('the OpenAPI document does not describe them, even when handed the whole catalog', async (t) => {
  const { request } = await startTestApp(t);
  const served = (await request('GET', '/v1/openapi.json')).body;
  for (const doc of [served, buildOpenApiDocument(catalog, 'http://localhost:3000') as typeof served]) {
    const operationIds = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId),
    );
    for (const op of DASHBOARD_ONLY) {
      assert.ok(!operationIds.includes(op.name), `${op.name} is in the document`);
      assert.equal(doc.paths[op.path]?.[op.method.toLowerCase()], undefined, `${op.method} ${op.path} is in the document`);
    }
  }
});

test('the pipeline refuses them for an admin API key and an assistant token: 403, nothing changed', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace('business');
  const ids = { video: await ws.addVideo(), lead: await ws.addLead() };
  const assistant = await ws.mintKey({ kind: 'assistant' });
  const pipeline = createPipeline(pipelineDeps(harness.dependencies, quiet));
  for (const op of DASHBOARD_ONLY) {
    const input = op.name === 'delete_video' ? { video_id: ids.video } : { lead_id: ids.lead };
    for (const token of [ws.key, assistant.key]) {
      const outcome = await pipeline(op, { authorization: `Bearer ${token}`, input, source: 'json', requestId: `test_${randomUUID()}` });
      assert.equal(outcome.status, 403, `${op.name}: ${JSON.stringify(outcome.body)}`);
      assert.equal((outcome.body as { error: { code: string } }).error.code, 'forbidden');
    }
  }
  assert.equal((await harness.request('GET', `/v1/videos/${ids.video}`, { token: ws.key })).status, 200);
  assert.equal((await harness.request('GET', `/v1/leads/${ids.lead}`, { token: ws.key })).status, 200);
});
