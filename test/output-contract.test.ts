/**
 * One contract per output, on both transports, for every operation in the catalog: each handler is
 * replaced (in a copy of the catalog given to this test's app only) by one returning a full example
 * of its declared output, with an undeclared `secret_internal` field added to every object that
 * declares its fields: at the top, in nested objects, in array items and in record values. Over REST
 * and over MCP (the official SDK client), fresh and replayed from an idempotency key, the answer is
 * exactly the declared output and the field never appears.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiOperations, catalog as everyOperation } from '../src/catalog.ts';
import { type AnyOperation, successStatus } from '../src/core/operation.ts';
import { maskPersonalData } from '../src/core/pii.ts';
import { startTestApp } from './helpers/app.ts';
import { callTool, connectMcp } from './helpers/mcp-client.ts';
import { restRequest } from './helpers/operation-request.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

const UNDECLARED = 'secret_internal';
const FIXED_ID = '6f9c2b1e-4d3a-4b8c-9e7f-1a2b3c4d5e6f';
const FIXED_TIME = '2026-03-01T12:00:00.000Z';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
}

/** A value of `schema` with every optional part present: arrays hold an item, records a key, nullables a value. */
function example(schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return example(schema.anyOf.find((branch) => branch.type !== 'null') ?? (schema.anyOf[0] as Schema));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties || schema.patternProperties) {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(schema.properties ?? {})) out[key] = example(field);
    const [recordValue] = Object.values(schema.patternProperties ?? {});
    if (recordValue) out.some_key = example(recordValue);
    else if (typeof schema.additionalProperties === 'object') out.some_key = example(schema.additionalProperties);
    return out;
  }
  if (type === 'array') return schema.items ? [example(schema.items)] : [];
  if (type === 'string') {
    if (schema.format === 'uuid') return FIXED_ID;
    if (schema.format === 'date-time') return FIXED_TIME;
    if (schema.format === 'date') return FIXED_TIME.slice(0, 10);
    return 'x'.repeat(Math.max(schema.minLength ?? 0, 6));
  }
  if (type === 'integer') return Math.max(schema.minimum ?? 1, Math.min(1, schema.maximum ?? 1));
  if (type === 'number') return schema.maximum !== undefined ? (schema.maximum + (schema.minimum ?? 0)) / 2 : (schema.minimum ?? 0) + 1.5;
  if (type === 'boolean') return true;
  return null;
}

/** A copy of `value` with the undeclared field added to every object of `schema` that lists its fields; returns how many. */
function withUndeclared(schema: Schema, value: unknown, count = { n: 0 }): { value: unknown; count: { n: number } } {
  const branch = schema.anyOf?.find((s) => s.type !== 'null');
  if (branch) return withUndeclared(branch, value, count);
  if (Array.isArray(value)) return { value: value.map((item) => withUndeclared(schema.items ?? {}, item, count).value), count };
  if (value === null || typeof value !== 'object') return { value, count };
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const fieldSchema =
      schema.properties?.[key] ??
      Object.values(schema.patternProperties ?? {})[0] ??
      (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {});
    out[key] = withUndeclared(fieldSchema, field, count).value;
  }
  const lists = schema.properties && !schema.patternProperties && typeof schema.additionalProperties !== 'object';
  if (lists && schema.additionalProperties !== true) {
    out[UNDECLARED] = { password_hash: 'must never leave', email: 'jane.doe@example.com' };
    count.n++;
  }
  return { value: out, count };
}

test('every operation answers exactly its declared output over REST and MCP, fresh and replayed', async (t) => {
  const leaky: AnyOperation[] = catalog.map((op) => ({
    ...op,
    handler: async () => withUndeclared(op.output as Schema, example(op.output as Schema)).value,
  }));
  const harness = await startTestApp(t, { operations: leaky });
  const ws = await harness.workspace('business');
  const client = await connectMcp(t, harness.app, ws.key);

  for (const op of catalog) {
    await t.test(op.name, async () => {
      const declared = example(op.output as Schema);
      const planted = withUndeclared(op.output as Schema, declared);
      assert.ok(planted.count.n >= 1, `${op.name}: the undeclared field is planted at least at the top`);
      // The workspace masks personal data (the default), so the declared output arrives masked.
      const expected = maskPersonalData(op.output, declared);
      const input = op.example as Record<string, unknown>;
      const key = `contract-${op.name}`;
      const req = restRequest(op, input);
      const viaRest = (idempotencyKey?: string) =>
        harness.request(req.method, req.url, {
          token: ws.key,
          body: req.body,
          headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
        });
      const viaMcp = (idempotencyKey?: string) =>
        callTool(client, op.name, idempotencyKey ? { ...input, idempotency_key: idempotencyKey } : input);

      const answers: { how: string; text: string; body: unknown }[] = [];
      const rest = await viaRest(op.write ? key : undefined);
      assert.equal(rest.status, successStatus(op, declared), `${op.name} over REST: ${rest.raw}`);
      answers.push({ how: 'REST', text: rest.raw, body: rest.body });
      const mcp = await viaMcp();
      assert.notEqual(mcp.isError, true, `${op.name} over MCP: ${JSON.stringify(mcp.content)}`);
      const mcpText = (mcp.content[0] as { text: string }).text;
      answers.push({ how: 'MCP structured', text: JSON.stringify(mcp.structuredContent), body: mcp.structuredContent });
      answers.push({ how: 'MCP text', text: mcpText, body: JSON.parse(mcpText) });
      if (op.write) {
        // The stored response is the declared one, whichever transport replays it.
        const restReplay = await viaRest(key);
        assert.equal(restReplay.headers['idempotency-replayed'], 'true', `${op.name} replays over REST`);
        answers.push({ how: 'REST replay', text: restReplay.raw, body: restReplay.body });
        const mcpReplay = await viaMcp(key);
        answers.push({ how: 'MCP replay', text: JSON.stringify(mcpReplay.structuredContent), body: mcpReplay.structuredContent });
      }
      for (const answer of answers) {
        assert.ok(!answer.text.includes(UNDECLARED), `${op.name} over ${answer.how} leaks ${UNDECLARED}: ${answer.text}`);
        assert.deepEqual(answer.body, expected, `${op.name} over ${answer.how} is exactly the declared output`);
      }
    });
  }
});
