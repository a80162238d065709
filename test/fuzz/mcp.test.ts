/**
 * Every MCP tool, through the official SDK client, takes a sample of each of the fuzz suite's attacks
 * on each argument and answers a result or a small 4xx, never an internal error; and every input the
 * service accepts is bounded by construction (arrays have maxItems, patterns say in words what they
 * accept), which is what keeps the attacks cheap to refuse.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalog as everyOperation } from '../../src/catalog.ts';
import { ERROR_STATUS } from '../../src/core/errors.ts';
import type { AnyOperation } from '../../src/core/operation.ts';
import { MAX_MEMBERS } from '../../src/core/pipeline/input-bounds.ts';
import { PATTERN_RULE } from '../../src/core/pipeline/validation-messages.ts';
import { CollectBatch } from '../../src/domains/viewing/collect-batch.ts';
import { RouteEventsBody, RouteLeadBody } from '../../src/transports/public/route-player/route-player-bodies.ts';
import { startTestApp } from '../helpers/app.ts';
import { catalog, exampleOf, fieldsOf, MANY_REQUESTS, MCP_ATTACKS, report } from '../helpers/fuzz-attacks.ts';
import { AttackTally, answerProblems, PROTOTYPE_NAMES } from '../helpers/hostile-inputs.ts';
import { callTool, connectMcp } from '../helpers/mcp-client.ts';

test(
  'MCP: every attack on every argument of every tool answers a result or a small 4xx, never an internal error',
  MANY_REQUESTS,
  async (t) => {
    const { app, workspace } = await startTestApp(t, { rateLimitOverride: 1_000_000 });
    const ws = await workspace();
    const video = await ws.addVideo({ tags: ['demo'] });
    const client = await connectMcp(t, app, ws.key);
    await client.listTools(); // so the client checks every result against the tool's output schema
    const tally = new AttackTally();
    const failures: string[] = [];
    const call = async (attack: string, op: AnyOperation, args: Record<string, unknown>) => {
      const started = performance.now();
      let status: number;
      let size: number;
      let found: string[];
      try {
        const result = await callTool(client, op.name, args);
        size = Buffer.byteLength(JSON.stringify(result));
        const error = result.isError ? result.structuredContent : undefined;
        const code = (error as { error?: { code?: string } } | undefined)?.error?.code ?? '';
        status = error ? (Object.hasOwn(ERROR_STATUS, code) ? ERROR_STATUS[code as keyof typeof ERROR_STATUS] : 500) : 200;
        found = answerProblems(status, size, error);
      } catch (thrown) {
        // An HTTP refusal before MCP (too deep a body) is a 4xx; a JSON-RPC internal error is our 5xx.
        const code = (thrown as { code?: unknown }).code;
        const message = String((thrown as Error).message);
        size = Buffer.byteLength(message);
        status = typeof code === 'number' && code >= 400 && code < 500 ? code : code === -32602 ? 400 : 500;
        found = status >= 500 ? [`threw ${String(code)} ${message.slice(0, 200)}`] : size > 64 * 1024 ? [`threw ${size} bytes`] : [];
      }
      tally.record(attack, status, performance.now() - started, size);
      if (found.length > 0) failures.push(`${attack}: ${op.name} ${JSON.stringify(args).slice(0, 100)} ${found.join(', ')}`);
    };
    for (const op of catalog) {
      const example = exampleOf(op, video);
      await call('unknown fields', op, { ...example, unexpected_field: 1 });
      for (const name of PROTOTYPE_NAMES) await call('prototype property names', op, { ...example, [name]: 'x' });
      for (const field of fieldsOf(op)) {
        for (const [attack, values] of MCP_ATTACKS) {
          for (const value of values) await call(attack, op, { ...example, [field]: value });
        }
      }
    }
    report(t, tally, 'MCP');
    assert.ok(tally.total > 1_500, `sent ${tally.total} tool calls`);
    assert.deepEqual(failures, []);
  },
);

test('inputs are bounded by construction: every array has maxItems, every pattern says in words what it accepts', () => {
  const missing: string[] = [];
  const walk = (schema: unknown, where: string): void => {
    if (schema === null || typeof schema !== 'object') return;
    const s = schema as Record<string, unknown>;
    if (s.type === 'array' && typeof s.maxItems !== 'number') missing.push(`${where}: an array without maxItems`);
    // JSON bodies are refused before parsing beyond MAX_MEMBERS: no schema may accept more.
    if (typeof s.maxItems === 'number' && s.maxItems >= MAX_MEMBERS) missing.push(`${where}: maxItems ${s.maxItems} ≥ ${MAX_MEMBERS}`);
    if (typeof s.pattern === 'string' && typeof s[PATTERN_RULE] !== 'string') missing.push(`${where}: a pattern without ${PATTERN_RULE}`);
    for (const [key, value] of Object.entries(s)) {
      if (key === 'properties') for (const [name, property] of Object.entries(value as object)) walk(property, `${where}.${name}`);
      else if (Array.isArray(value)) for (const item of value) walk(item, where);
      else walk(value, key === 'items' ? `${where}[]` : where);
    }
  };
  for (const op of everyOperation) walk(op.input, op.name);
  walk(CollectBatch, '/collect');
  walk(RouteEventsBody, '/r/{route_id}/events');
  walk(RouteLeadBody, '/r/{route_id}/lead');
  assert.deepEqual(missing, []);
});
