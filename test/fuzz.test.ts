/**
 * Bad input never produces a 500 (DESIGN §7), nor a large answer: every operation over REST, every
 * MCP tool through the official SDK client, and POST /collect are sent their example input with each
 * field replaced by hostile values — wrong types, huge and odd strings, prototype property names,
 * impossible dates, oversized numbers, huge arrays and objects, depth bombs, unknown fields. Each
 * answer must be a success or a documented 4xx with the standard error body, under 64 KB, in plain
 * words (no doubled full stops, no validator jargon). Each suite reports, per attack, the requests
 * sent, the 5xx, the slowest and the largest answer; times are reported, never asserted.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { apiOperations, catalog as everyOperation } from '../src/catalog.ts';
import { ERROR_STATUS } from '../src/core/errors.ts';
import { type AnyOperation, pathParams } from '../src/core/operation.ts';
import { MAX_MEMBERS } from '../src/core/pipeline/input-bounds.ts';
import { PATTERN_RULE } from '../src/core/pipeline/validation-messages.ts';
import { CollectBatch } from '../src/domains/viewing/collect-batch.ts';
import { RouteEventsBody, RouteLeadBody } from '../src/transports/public/route-player/route-player-bodies.ts';
import { startTestApp, type TestResponse } from './helpers/app.ts';
import {
  AttackTally,
  answerProblems,
  BIG_NUMBERS,
  HOSTILE,
  HUGE_ARRAY,
  HUGE_OBJECT,
  IMPOSSIBLE_DATES,
  LONG_ARRAY,
  nestedArrays,
  nestedArrayText,
  nestedObjects,
  PROTOTYPE_NAMES,
  PROTOTYPE_VALUES,
  RAW_NUMBERS,
  WIDE_OBJECT,
} from './helpers/hostile-inputs.ts';
import { callTool, connectMcp } from './helpers/mcp-client.ts';
import { restRequest } from './helpers/operation-request.ts';
import { pageData, wireStep } from './helpers/routes.ts';
import { BROWSER, pageView, viewer } from './helpers/viewing.ts';

/** What /v1 and MCP offer: the dashboard's own actions are never there (test/dashboard-only.test.ts). */
const catalog = apiOperations(everyOperation);

/** Attacks that put one value in one field, whatever the transport. */
const VALUE_ATTACKS: [string, unknown[]][] = [
  ['hostile values', HOSTILE],
  ['prototype property names', PROTOTYPE_VALUES],
  ['impossible dates', IMPOSSIBLE_DATES],
  ['oversized numbers', BIG_NUMBERS],
  ['huge arrays', [HUGE_ARRAY, LONG_ARRAY]],
  ['huge objects', [HUGE_OBJECT, WIDE_OBJECT]],
  ['nesting', [nestedArrays(20), nestedObjects(31), nestedObjects(40), nestedArrays(3_000), nestedObjects(3_000)]],
];

/**
 * Over MCP, a sample of each attack: the arguments take the same validation path as REST bodies, so
 * what MCP adds (the SDK's parsing, results, errors) is covered without sending everything twice.
 */
const MCP_ATTACKS: [string, unknown[]][] = [
  ['hostile values', [null, true, 1.5, '', 'x'.repeat(20_000), '\u0000', [], [null], ['a', 'a'], {}]],
  ['prototype property names', ['constructor', '__proto__', 'toString', ['constructor'], { constructor: 'x', toString: 'y' }]],
  ['impossible dates', ['2030-12-31T23:59:60Z', '2030-02-30', '0000-01-01T00:00:00Z', '10000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z']],
  ['oversized numbers', [Number.MAX_VALUE, -(2 ** 63)]],
  ['huge arrays', [HUGE_ARRAY, LONG_ARRAY]],
  ['huge objects', [HUGE_OBJECT, WIDE_OBJECT]],
  ['nesting', [nestedObjects(31), nestedObjects(40), nestedArrays(3_000)]],
];

const RAW_MARK = '\u0001raw\u0001';

function report(t: TestContext, tally: AttackTally, surface: string): void {
  for (const line of tally.lines(surface)) t.diagnostic(line);
}

/** An operation's example, with a real video of the workspace where it names one. */
function exampleOf(op: AnyOperation, videoId: string): Record<string, unknown> {
  const example = { ...(op.example as Record<string, unknown>) };
  if ('video_id' in example) example.video_id = videoId;
  return example;
}

function fieldsOf(op: AnyOperation): string[] {
  return Object.keys((op.input as { properties: object }).properties);
}

const takesBody = (op: AnyOperation) => op.method !== 'GET' && op.method !== 'DELETE';

function asQueryValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value;
}

// Thousands of requests: on a busy 2-core machine this took over the suite's 120 s default once, so
// it gets a longer guard against a hang (a guard, not a speed target).
const MANY_REQUESTS = { timeout: 360_000 };

test('REST: every attack on every field of every operation answers success or a small, documented 4xx', MANY_REQUESTS, async (t) => {
  const { request, workspace } = await startTestApp(t, { rateLimitOverride: 1_000_000 });
  const ws = await workspace();
  const video = await ws.addVideo({ tags: ['demo'] });
  const tally = new AttackTally();
  const failures: string[] = [];
  const send = async (attack: string, op: AnyOperation, method: string, url: string, body?: unknown) => {
    const started = performance.now();
    const res: TestResponse = await request(method, url, { token: ws.key, body });
    const ms = performance.now() - started;
    tally.record(attack, res.status, ms, Buffer.byteLength(res.raw));
    const found = answerProblems(res.status, Buffer.byteLength(res.raw), res.body);
    if (found.length > 0)
      failures.push(`${attack}: ${op.name} ${method} ${url.slice(0, 100)} ${found.join(', ')}: ${res.raw.slice(0, 300)}`);
  };
  for (const op of catalog) {
    const example = exampleOf(op, video);
    const sendInput = (attack: string, input: Record<string, unknown>) => {
      // In a path or query string an object can only be text; its JSON is the closest a client can send.
      const inUrl = (name: string) => !takesBody(op) || pathParams(op.path).includes(name);
      const sent = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, inUrl(k) ? asQueryValue(v) : v]));
      const req = restRequest(op, sent);
      return send(attack, op, req.method, req.url, req.body);
    };
    await sendInput('unknown fields', { ...example, unexpected_field: 1 });
    for (const name of PROTOTYPE_NAMES) await sendInput('prototype property names', { ...example, [name]: 'x' });
    for (const field of fieldsOf(op)) {
      for (const [attack, values] of VALUE_ATTACKS) {
        for (const value of values) {
          // A query string cannot nest; deep values are for bodies.
          if (attack === 'nesting' && !takesBody(op)) continue;
          await sendInput(attack, { ...example, [field]: value });
        }
      }
      if (!takesBody(op)) continue;
      // Numbers beyond what JavaScript holds, as the JSON text a client can send.
      for (const raw of RAW_NUMBERS) {
        const req = restRequest(op, { ...example, [field]: RAW_MARK });
        await send('oversized numbers', op, req.method, req.url, JSON.stringify(req.body).replace(`"${RAW_MARK}"`, raw));
      }
    }
    if (takesBody(op)) {
      const req = restRequest(op, example);
      for (const depth of [3_000, 100_000]) await send('depth bombs', op, req.method, req.url, nestedArrayText(depth));
      const deepField = `{"${fieldsOf(op)[0] ?? 'x'}":${nestedArrayText(3_000)}}`;
      await send('depth bombs', op, req.method, req.url, deepField);
      await send('prototype property names', op, req.method, req.url, '{"__proto__":{"polluted":true}}');
      await send('prototype property names', op, req.method, req.url, '{"constructor":{"prototype":{"polluted":true}}}');
    } else {
      const req = restRequest(op, example);
      const join = req.url.includes('?') ? '&' : '?';
      await send('prototype property names', op, req.method, `${req.url}${join}__proto__=x&constructor=y&toString=z`);
      await send('huge arrays', op, req.method, `${req.url}${join}${'tags=x&'.repeat(2_000)}`);
    }
  }
  report(t, tally, 'REST');
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was not polluted');
  assert.ok(tally.total > 3_000, `sent ${tally.total} requests`);
  assert.deepEqual(failures, []);
});

test('odd encodings in paths and query strings give 4xx, never 5xx', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const ws = await workspace();
  const urls = [
    '/v1/videos/%E0%A4%A',
    '/v1/videos/%00',
    '/v1/videos?search=%E0%A4%A',
    '/v1/videos?limit=%00',
    '/v1/videos?tags=%2C%2C%2C',
    `/v1/videos?${'a=1&'.repeat(2000)}`,
    '/v1/videos?sort[]=x',
    '/v1/videos/../api-keys',
    '/v1/videos?limit=1e400',
    '/v1/videos?limit=99999999999999999999999',
    '/v1/videos?limit=0x10',
    '/v1/analytics/daily?from=2030-02-30&to=0000-01-01',
  ];
  for (const url of urls) {
    const res = await request('GET', url, { token: ws.key });
    assert.deepEqual(answerProblems(res.status, Buffer.byteLength(res.raw), res.body), [], `${url} → ${res.status} ${res.raw}`);
  }
});

test('POST /collect: every attack on every field of a batch answers success or a small, documented 4xx', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const video = await ws.addVideo({ duration_seconds: 60 });
  const view = pageView(video);
  const tally = new AttackTally();
  const failures: string[] = [];
  let sequence = 1;
  const post = async (attack: string, payload: string) => {
    const started = performance.now();
    const res = await harness.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      payload,
    });
    const ms = performance.now() - started;
    const bytes = Buffer.byteLength(res.body);
    tally.record(attack, res.statusCode, ms, bytes);
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    const found = answerProblems(res.statusCode, bytes, body);
    if (found.length > 0) failures.push(`${attack}: ${payload.slice(0, 100)} ${found.join(', ')}: ${res.body.slice(0, 300)}`);
  };
  // A batch is at most 64 KiB: the large values are sized to be read and refused, not cut off at 413.
  const collectAttacks: [string, unknown[]][] = VALUE_ATTACKS.map(([attack, values]) => [
    attack,
    attack === 'huge arrays'
      ? [HUGE_ARRAY.slice(0, 12_000), LONG_ARRAY]
      : attack === 'huge objects'
        ? [Object.fromEntries(Object.entries(HUGE_OBJECT).slice(0, 4_000)), WIDE_OBJECT]
        : values,
  ]);
  const batch = () => ({ token: view.token, viewer_id: viewer('fuzz'), sequence: sequence++, events: [{ type: 'play', position: 1 }] });
  const event = { type: 'progress', position: 1, from: 0, to: 1, ranges: [[0, 1]], label: 'Book a call' };
  await post('unknown fields', JSON.stringify({ ...batch(), unexpected_field: 1 }));
  for (const [attack, values] of collectAttacks) {
    for (const value of values) {
      for (const field of Object.keys(CollectBatch.properties)) await post(attack, JSON.stringify({ ...batch(), [field]: value }));
      for (const field of Object.keys(event)) await post(attack, JSON.stringify({ ...batch(), events: [{ ...event, [field]: value }] }));
      await post(attack, JSON.stringify({ ...batch(), events: [{ ...event, ranges: [[value, 2]] }] }));
    }
  }
  for (const raw of RAW_NUMBERS) {
    for (const field of ['sequence', 'position', 'from', 'to']) {
      const payload = field === 'sequence' ? { ...batch(), sequence: RAW_MARK } : { ...batch(), events: [{ ...event, [field]: RAW_MARK }] };
      await post('oversized numbers', JSON.stringify(payload).replace(`"${RAW_MARK}"`, raw));
    }
  }
  for (const depth of [3_000, 100_000]) await post('depth bombs', nestedArrayText(depth));
  await post('depth bombs', `{"token":${nestedArrayText(3_000)}}`);
  await post('huge arrays', JSON.stringify({ ...batch(), events: Array.from({ length: 600 }, () => event) }));
  await post('huge arrays', JSON.stringify({ ...batch(), events: [{ ...event, ranges: Array.from({ length: 4_000 }, () => [0, 1]) }] }));
  await post('prototype property names', '{"__proto__":{"polluted":true}}');
  report(t, tally, '/collect');
  assert.ok(tally.total > 500, `sent ${tally.total} batches`);
  assert.deepEqual(failures, []);
});

test('the route player’s endpoints: every attack on every field of an events batch and a lead form answers success or a small 4xx', async (t) => {
  const harness = await startTestApp(t);
  const ws = await harness.workspace();
  const route = await ws.addRoute({ status: 'live' });
  const entry = route.stepIds[0] as string;
  const [choice] = await wireStep(harness, ws.id, route, entry, 'Which?', [{ label: 'Talk to us', target: 'lead_form' }]);
  const page = await harness.app.inject({ method: 'GET', url: `/r/${route.id}` });
  const { token } = pageData(page.body);
  const tally = new AttackTally();
  const failures: string[] = [];
  const post = async (attack: string, path: string, payload: string) => {
    const started = performance.now();
    const res = await harness.app.inject({
      method: 'POST',
      url: `/r/${route.id}/${path}`,
      headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
      payload,
    });
    const bytes = Buffer.byteLength(res.body);
    tally.record(attack, res.statusCode, performance.now() - started, bytes);
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    const found = answerProblems(res.statusCode, bytes, body);
    if (found.length > 0) failures.push(`${attack}: ${path} ${payload.slice(0, 100)} ${found.join(', ')}: ${res.body.slice(0, 300)}`);
  };
  // The bodies are at most 16 and 8 KiB: large values are sized to be read and refused, not cut off at 413.
  const attacks: [string, unknown[]][] = VALUE_ATTACKS.map(([attack, values]) => [
    attack,
    attack === 'huge arrays' ? [HUGE_ARRAY.slice(0, 2_000)] : attack === 'huge objects' ? [WIDE_OBJECT] : values,
  ]);
  const events = { token, viewer_id: viewer('fuzz-route'), events: [{ type: 'step', index: 0, step_id: entry }] };
  const event = { type: 'choice', index: 0, step_id: entry, choice_id: choice };
  const lead = { token, viewer_id: viewer('fuzz-route'), index: 0, step_id: entry, email: 'fuzz@example.com', first_name: 'Fuzz' };
  await post('unknown fields', 'events', JSON.stringify({ ...events, unexpected_field: 1 }));
  for (const [attack, values] of attacks) {
    for (const value of values) {
      for (const field of Object.keys(events)) await post(attack, 'events', JSON.stringify({ ...events, [field]: value }));
      for (const field of Object.keys(event))
        await post(attack, 'events', JSON.stringify({ ...events, events: [{ ...event, [field]: value }] }));
      for (const field of Object.keys(lead)) await post(attack, 'lead', JSON.stringify({ ...lead, [field]: value }));
    }
  }
  for (const depth of [3_000, 100_000]) await post('depth bombs', 'events', nestedArrayText(depth));
  await post('huge arrays', 'events', JSON.stringify({ ...events, events: Array.from({ length: 300 }, () => event) }));
  await post('prototype property names', 'lead', '{"__proto__":{"polluted":true}}');
  report(t, tally, '/r/{route_id}');
  assert.ok(tally.total > 500, `sent ${tally.total} requests`);
  assert.deepEqual(failures, []);
});

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
