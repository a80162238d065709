/**
 * Bad input never produces a 500 over /v1 (DESIGN §7), nor a large answer: every operation is sent its
 * example input with each field replaced by hostile values — wrong types, huge and odd strings,
 * prototype property names, impossible dates, oversized numbers, huge arrays and objects, depth
 * bombs, unknown fields — and odd encodings in paths and query strings. Each answer must be a
 * success or a documented 4xx with the standard error body, under 64 KB, in plain words. The suite
 * reports, per attack, the requests sent, the 5xx, the slowest and the largest answer; times are
 * reported, never asserted. The same attacks go to MCP (mcp.test.ts) and the public endpoints
 * (public-endpoints.test.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type AnyOperation, pathParams } from '../../src/core/operation.ts';
import { startTestApp, type TestResponse } from '../helpers/app.ts';
import {
  asQueryValue,
  catalog,
  exampleOf,
  fieldsOf,
  MANY_REQUESTS,
  RAW_MARK,
  report,
  takesBody,
  VALUE_ATTACKS,
} from '../helpers/fuzz-attacks.ts';
import { AttackTally, answerProblems, nestedArrayText, PROTOTYPE_NAMES, RAW_NUMBERS } from '../helpers/hostile-inputs.ts';
import { restRequest } from '../helpers/operation-request.ts';

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
