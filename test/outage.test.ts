/**
 * Dependencies failing give fast, bounded answers (DESIGN §7): with PostgreSQL unreachable every API
 * call is a 503 with Retry-After (never a 500, never a hang) and /ready says so while /health stays
 * up; with Redis unreachable the rate limiter falls back to per-process memory.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildApp } from '../src/app.ts';
import { createRateLimiter } from '../src/core/rate-limit.ts';
import { generateToken } from '../src/core/tokens.ts';
import { openDatabase } from '../src/db/client.ts';
import { connectRedis } from '../src/runtime.ts';
import { createLocalMediaStore } from '../src/storage/local-media-store.ts';
import { TEST_SECRET } from './helpers/app.ts';

test('PostgreSQL unreachable: 503 with Retry-After on the API, /ready 503, /health 200', async (t) => {
  // Port 1 on loopback refuses connections at once, like a stopped server.
  const database = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' });
  const app = await buildApp({
    database,
    mediaStore: createLocalMediaStore(join(tmpdir(), 'cuepoint-outage-media')),
    rateLimiter: createRateLimiter(),
    secret: TEST_SECRET,
    publicUrl: 'http://localhost:3000',
  });
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
