/**
 * The pipeline's conventions, seen from HTTP: error bodies and headers for every code, all problems
 * listed at once, unknown fields refused, no internals leaked, plan entitlements, request ids.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { startTestApp } from '../../../test/helpers/app.ts';
import { catalog } from '../../catalog.ts';
import { defineOperation } from '../operation.ts';

const exploding = defineOperation({
  name: 'explode_database',
  summary: 'Fails like a bug would',
  description: 'Test-only operation that throws an unexpected error carrying SQL and a file path.',
  method: 'GET',
  path: '/test/explode',
  group: 'Test',
  scope: 'workspace:read',
  write: false,
  errors: [],
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({}),
  example: {},
  async handler() {
    throw new Error('syntax error at or near "SELECT * FROM credentials" in /work/main/src/secret.ts:12');
  },
});

const routed = defineOperation({
  name: 'plan_routes',
  summary: 'Needs interactive routes',
  description: 'Test-only operation that needs the interactive_routes entitlement, absent on the free plan.',
  method: 'GET',
  path: '/test/routes',
  group: 'Test',
  scope: 'routes:read',
  entitlement: 'interactive_routes',
  write: false,
  errors: [],
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({ ok: Type.Boolean() }),
  example: {},
  async handler() {
    return { ok: true };
  },
});

/** Reports, when the shape is wrong, what only the database shows: no video of the workspace has the title. */
const checkedAgainstDatabase = defineOperation({
  name: 'check_title',
  summary: 'Checks a title against the database',
  description: 'Test-only operation whose databaseProblems reads the videos table when the input’s shape is wrong.',
  method: 'POST',
  path: '/test/titles',
  group: 'Test',
  scope: 'videos:write',
  write: true,
  errors: [],
  input: Type.Object({ title: Type.String({ minLength: 1 }), count: Type.Integer({ maximum: 3 }) }, { additionalProperties: false }),
  async databaseProblems(db, workspaceId, input) {
    const title = (input as { title?: unknown }).title;
    const video =
      typeof title === 'string'
        ? await db.selectFrom('videos').select('id').where('workspace_id', '=', workspaceId).where('title', '=', title).executeTakeFirst()
        : undefined;
    return [
      ...(video ? [] : [{ field: 'title', problem: 'names no video of this workspace' }]),
      // A field the shape reports already: the answer names it once, with the shape's problem.
      { field: 'count', problem: 'is also wrong in the database' },
    ];
  },
  output: Type.Object({ ok: Type.Boolean() }),
  example: { title: 'Intro', count: 1 },
  async handler() {
    return { ok: true };
  },
});

test('invalid_request lists every problem at once, with fields, and refuses unknown fields', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const res = await request('GET', '/v1/videos?limit=0&sort=loudest&status=lost&colour=red&folder_id=12', { token: ws.key });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, 'invalid_request');
  const fields = res.body.error.details.errors.map((e: { field: string }) => e.field).sort();
  assert.deepEqual(fields, ['colour', 'folder_id', 'limit', 'sort', 'status']);
  for (const field of fields) assert.match(res.body.error.message, new RegExp(field));
  assert.match(res.body.error.message, /5 problems/);

  const body = await request('POST', '/v1/api-keys', { token: ws.key, body: { workspace_id: ws.id, scope: 7 } });
  assert.deepEqual(body.body.error.details.errors.map((e: { field: string }) => e.field).sort(), ['name', 'scope', 'workspace_id']);

  const pathInBody = await request('PATCH', '/v1/videos/00000000-0000-4000-8000-000000000000', {
    token: ws.key,
    body: { video_id: '11111111-1111-4111-8111-111111111111' },
  });
  assert.equal(pathInBody.status, 400);
  assert.match(pathInBody.body.error.message, /video_id: belongs in the path/);
});

test('bodies that are not JSON objects are 400; oversized bodies are 413', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const cases: [string, Record<string, string>, string][] = [
    ['{"name": ', { 'content-type': 'application/json' }, 'not valid JSON'],
    ['[1,2]', { 'content-type': 'application/json' }, 'must be a JSON object'],
    ['name=x', { 'content-type': 'application/x-www-form-urlencoded' }, 'Content-Type'],
    ['name', { 'content-type': 'text/plain' }, 'Content-Type'],
  ];
  for (const [payload, headers, message] of cases) {
    const res = await request('POST', '/v1/api-keys', { token: ws.key, body: payload, headers });
    assert.equal(res.status, 400, payload);
    assert.equal(res.body.error.code, 'invalid_request');
    assert.match(res.body.error.message, new RegExp(message));
  }
  const huge = await request('POST', '/v1/api-keys', { token: ws.key, body: { name: 'x'.repeat(1_100_000) } });
  assert.equal(huge.status, 413);
  assert.equal(huge.body.error.code, 'payload_too_large');
});

test('unexpected failures are a plain 500: no stack, SQL or paths, and the request id to quote', async (t) => {
  const { request, workspace } = await startTestApp(t, { operations: [...catalog, exploding] });
  const ws = await workspace();
  const res = await request('GET', '/v1/test/explode', { token: ws.key, headers: { 'x-request-id': 'trace-123' } });
  assert.equal(res.status, 500);
  assert.equal(res.body.error.code, 'internal');
  assert.equal(res.body.error.request_id, 'trace-123');
  assert.equal(res.headers['x-request-id'], 'trace-123');
  assert.doesNotMatch(res.raw, /SELECT|credentials|\/work|\.ts|at /);
});

test('a capability the plan lacks is 403 plan_limit naming the entitlement', async (t) => {
  const { request, workspace } = await startTestApp(t, { operations: [...catalog, routed] });
  const free = await workspace('free');
  const pro = await workspace('pro');
  const denied = await request('GET', '/v1/test/routes', { token: free.key });
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error.code, 'plan_limit');
  assert.equal(denied.body.error.details.entitlement, 'interactive_routes');
  assert.equal((await request('GET', '/v1/test/routes', { token: pro.key })).status, 200);
});

test('unknown paths are JSON 404, known paths with the wrong verb 405 with Allow, and every response has X-Request-Id', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const missing = await request('GET', '/v1/nothing-here', { token: ws.key });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, 'not_found');
  const deleteVideo = await request('DELETE', '/v1/videos/00000000-0000-4000-8000-000000000000', { token: ws.key });
  assert.equal(deleteVideo.status, 405);
  assert.equal(deleteVideo.body.error.code, 'method_not_allowed');
  assert.equal(deleteVideo.headers.allow, 'GET, PATCH, HEAD');
  const options = await request('OPTIONS', '/v1/videos');
  assert.equal(options.status, 405);
  const putVideos = await request('PUT', '/v1/videos');
  assert.equal(putVideos.status, 405);
  assert.match(String(putVideos.headers.allow), /GET/);
  for (const res of [missing, deleteVideo, putVideos, await request('GET', '/health'), await request('GET', '/v1/videos')]) {
    assert.match(String(res.headers['x-request-id']), /^req_[0-9a-f]{32}$/);
  }
  const unsafe = await request('GET', '/health', { headers: { 'x-request-id': 'bad id\twith tab' } });
  assert.match(String(unsafe.headers['x-request-id']), /^req_/);
});

test('health and readiness', async (t) => {
  const { request } = await startTestApp(t);
  assert.deepEqual((await request('GET', '/health')).body, { status: 'ok' });
  assert.deepEqual((await request('GET', '/ready')).body, { status: 'ready' });
});

test('an operation’s database problems join its shape problems in one answer, each field named once', async (t) => {
  const { request, workspace } = await startTestApp(t, { operations: [...catalog, checkedAgainstDatabase] });
  const ws = await workspace();
  await ws.addVideo({ title: 'Intro' });
  const both = await request('POST', '/v1/test/titles', { token: ws.key, body: { title: 'Outro', count: 9 } });
  assert.equal(both.status, 400, both.raw);
  assert.deepEqual(both.body.error.details.errors, [
    { field: 'count', problem: 'must be at most 3' },
    { field: 'title', problem: 'names no video of this workspace' },
  ]);
  assert.match(both.body.error.message, /^The request has 2 problems: /);
  // Scoped to the caller's workspace: another workspace's video is no answer.
  const other = await workspace();
  const elsewhere = await request('POST', '/v1/test/titles', { token: other.key, body: { title: 'Intro', count: 9 } });
  assert.deepEqual(
    elsewhere.body.error.details.errors.map((e: { field: string }) => e.field),
    ['count', 'title'],
  );
  const known = await request('POST', '/v1/test/titles', { token: ws.key, body: { title: 'Intro', count: 9 } });
  assert.deepEqual(
    known.body.error.details.errors.map((e: { field: string }) => e.field),
    ['count'],
  );
  // A valid shape never asks: the handler makes its own checks in its transaction.
  const valid = await request('POST', '/v1/test/titles', { token: ws.key, body: { title: 'Outro', count: 1 } });
  assert.deepEqual([valid.status, valid.body], [200, { ok: true }]);
});
