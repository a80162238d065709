/**
 * Dependencies failing give fast, bounded answers (DESIGN §7): with PostgreSQL unreachable every API
 * call, MCP request and public page or file is a 503 with Retry-After (never a 500, never a hang)
 * and /ready says so while /health stays up; with Redis unreachable the rate limiter falls back to
 * per-process memory. test/faults/ does the same to real PostgreSQL and Redis processes.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { createRateLimiter } from '../src/core/pipeline/rate-limit.ts';
import { generateToken } from '../src/core/secrets/tokens.ts';
import { openDatabase } from '../src/db/client.ts';
import { buildDependencies } from '../src/dependencies.ts';
import { connectRedis } from '../src/runtime.ts';
import { testConfig } from './helpers/app.ts';

test('PostgreSQL unreachable: 503 with Retry-After on the API, MCP and public routes, /ready 503, /health 200', async (t) => {
  // Port 1 on loopback refuses connections at once, like a stopped server.
  const database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' });
  const app = await buildApp(await buildDependencies(testConfig(join(tmpdir(), 'cuepoint-outage')), { database }));
  t.after(async () => {
    await app.close();
    await database.close();
  });
  const started = Date.now();
  const res = await app.inject({
    method: 'GET',
    url: '/v1/videos',
    headers: { authorization: `Bearer ${generateToken('api_key').token}` },
  });
  assert.equal(res.statusCode, 503, res.body);
  assert.equal(res.json().error.code, 'service_unavailable');
  assert.equal(res.headers['retry-after'], '5');
  assert.doesNotMatch(res.body, /ECONNREFUSED|127\.0\.0\.1/);
  assert.ok(Date.now() - started < 5000, 'answered without hanging');
  assert.equal((await app.inject({ method: 'GET', url: '/ready' })).statusCode, 503);
  assert.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200);

  // The routes outside the pipeline read the database too, and answer the same way.
  const videoId = '00000000-0000-4000-8000-000000000000';
  const publicRoutes = [
    // A viewer's browser gets a page; files answer with the API's error body.
    { method: 'GET', url: `/watch/${videoId}`, page: true },
    { method: 'GET', url: `/embed/${videoId}`, page: true },
    { method: 'GET', url: `/media/${videoId}`, page: false },
    { method: 'GET', url: `/media/${videoId}`, headers: { range: 'bytes=0-99' }, page: false },
    { method: 'GET', url: `/media/${videoId}/poster.jpg`, page: false },
    { method: 'GET', url: `/book/${videoId}`, page: true },
    { method: 'GET', url: `/book/${videoId}/slots`, page: false },
  ] as const;
  for (const route of publicRoutes) {
    const answer = await app.inject({ method: route.method, url: route.url, headers: 'headers' in route ? route.headers : {} });
    const name = `${route.method} ${route.url}${'headers' in route ? ' with Range' : ''}`;
    assert.equal(answer.statusCode, 503, `${name}: ${answer.body}`);
    assert.equal(answer.headers['retry-after'], '5', `${name} has Retry-After`);
    if (route.page) assert.match(String(answer.headers['content-type']), /^text\/html/, name);
    else assert.equal(answer.json().error.code, 'service_unavailable', name);
  }
  const mcp = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      host: 'localhost:3000',
      authorization: `Bearer ${generateToken('assistant').token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_workspace', arguments: {} } },
  });
  assert.equal(mcp.statusCode, 503, mcp.body);
  assert.equal(mcp.headers['retry-after'], '5', 'MCP has Retry-After');
  assert.equal(mcp.json().error.code, 'service_unavailable', 'MCP keeps the structured error');
});

test('Redis unreachable: the rate limiter keeps limiting from memory, promptly', async (t) => {
  const redis = connectRedis('redis://127.0.0.1:1');
  t.after(() => redis.disconnect());
  const limiter = createRateLimiter(redis);
  const started = Date.now();
  const decisions = [];
  for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('credential-x', 3));
  assert.deepEqual(
    decisions.map((d) => d.allowed),
    [true, true, true, false],
  );
  assert.ok(Date.now() - started < 3000, 'no request waited on Redis');
});
