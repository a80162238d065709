/**
 * The OpenAPI document is generated from the catalog: every operation appears once under its name,
 * with its scope, parameters and error responses, and the document passes Redocly's recommended lint.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { apiOperations, catalog as everyOperation } from '../src/catalog.ts';
import { successStatuses } from '../src/core/operation.ts';
import { EVENT_CATALOG, EVENT_TYPES } from '../src/event-catalog.ts';
import { startTestApp } from './helpers/app.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

const run = promisify(execFile);
const require = createRequire(import.meta.url);

test('GET /v1/openapi.json is public and lists exactly the catalog', async (t) => {
  const { request } = await startTestApp(t, { publicUrl: 'https://api.cuepoint.dev' });
  const res = await request('GET', '/v1/openapi.json');
  assert.equal(res.status, 200);
  const doc = res.body;
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(doc.servers, [{ url: 'https://api.cuepoint.dev/v1', description: 'This server' }]);

  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Record<string, unknown>>).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  assert.deepEqual(operations.map((o) => o.op.operationId).sort(), catalog.map((op) => op.name).sort());
  for (const op of catalog) {
    const found = operations.find((o) => o.op.operationId === op.name);
    assert.ok(found, op.name);
    assert.equal(found.path, op.path);
    assert.equal(found.method, op.method);
    assert.deepEqual(found.op['x-required-scopes'], [op.scope]);
    assert.deepEqual(found.op.security, [{ bearerAuth: [op.scope] }]);
    const responses = found.op.responses as Record<string, unknown>;
    for (const status of [...successStatuses(op).map(String), '400', '401', '403', '429', '500'])
      assert.ok(responses[status], `${op.name} documents ${status}`);
    if (op.errors.includes('not_found')) assert.ok(responses['404'], `${op.name} documents 404`);
    if (op.write) assert.ok(responses['409'], `${op.name} documents 409`);
  }
  const list = operations.find((o) => o.op.operationId === 'list_videos')?.op as {
    parameters: { name: string; schema: { enum?: string[] } }[];
  };
  const sort = list.parameters.find((p) => p.name === 'sort');
  assert.deepEqual(sort?.schema.enum, ['newest', 'oldest', 'most_viewed', 'title']);

  // One webhooks entry per event type, its body the envelope around the type's schema from the events catalog.
  assert.deepEqual(Object.keys(doc.webhooks), EVENT_TYPES);
  for (const type of EVENT_TYPES) {
    const body = doc.webhooks[type].post.requestBody.content['application/json'].schema;
    assert.deepEqual(body.required, ['id', 'type', 'created_at', 'workspace_id', 'data'], type);
    assert.equal(body.properties.type.const, type);
    assert.deepEqual(body.properties.data, JSON.parse(JSON.stringify(EVENT_CATALOG[type].data)), type);
  }
});

test('the OpenAPI document passes Redocly lint with no errors or warnings', async (t) => {
  const { request } = await startTestApp(t, { publicUrl: 'https://api.cuepoint.dev' });
  const dir = mkdtempSync(join(tmpdir(), 'cuepoint-openapi-'));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, (await request('GET', '/v1/openapi.json')).raw);
  const cli = require.resolve('@redocly/cli/bin/cli.js');
  const { stdout } = await run(
    process.execPath,
    [cli, 'lint', file, '--format', 'json', '--config', join(import.meta.dirname, '..', 'redocly.yaml')],
    {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
    totals: { errors: number; warnings: number };
    problems: { message: string }[];
  };
  assert.deepEqual(report.totals, { ...report.totals, errors: 0, warnings: 0 }, report.problems.map((p) => p.message).join('\n'));
});
