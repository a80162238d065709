/**
 * Rate limits: one bucket per credential with RateLimit headers on every answer, exact under a
 * parallel burst, 429 with Retry-After past the ceiling, other credentials unaffected, plan ceilings
 * applied when no override is configured.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestApp } from '../../../test/helpers/app.ts';

test('a parallel burst lets exactly the ceiling through, then 429 with Retry-After', async (t) => {
  const { request, workspace } = await startTestApp(t, { rateLimitOverride: 10 });
  const ws = await workspace();
  const first = await request('GET', '/v1/workspace', { token: ws.key });
  assert.equal(first.headers['ratelimit-policy'], '"default";q=10;w=60');
  assert.equal(first.body.limits.requests_per_minute, 10, 'get_workspace reports the limit in force');
  assert.match(String(first.headers.ratelimit), /^"default";r=9;t=\d+$/);
  const burst = await Promise.all(Array.from({ length: 30 }, () => request('GET', '/v1/workspace', { token: ws.key })));
  assert.equal(burst.filter((r) => r.status === 200).length, 9);
  const limited = burst.filter((r) => r.status === 429);
  assert.equal(limited.length, 21);
  for (const res of limited) {
    assert.equal(res.body.error.code, 'rate_limited');
    assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
    assert.match(String(res.headers.ratelimit), /^"default";r=0;t=\d+$/);
  }
  const other = await ws.mintKey();
  assert.equal((await request('GET', '/v1/workspace', { token: other.key })).status, 200, 'another credential has its own bucket');
});

test('REST calls of every kind draw from the one bucket; refused credentials do not', async (t) => {
  const { request, workspace } = await startTestApp(t, { rateLimitOverride: 3 });
  const ws = await workspace();
  const video = await ws.addVideo();
  assert.equal((await request('GET', '/v1/videos', { token: ws.key })).status, 200);
  assert.equal((await request('PATCH', `/v1/videos/${video}`, { token: ws.key, body: { title: 'New' } })).status, 200);
  assert.equal((await request('GET', '/v1/tags', { token: ws.key })).status, 200);
  assert.equal((await request('GET', '/v1/workspace', { token: ws.key })).status, 429);
  const reader = await ws.mintKey({ scopes: ['videos:read'] });
  for (let i = 0; i < 5; i++) assert.equal((await request('GET', '/v1/workspace', { token: reader.key })).status, 403);
  assert.equal((await request('GET', '/v1/videos', { token: reader.key })).status, 200, '403s did not spend the budget');
});

test('without an override, each plan has its own ceiling', async (t) => {
  const { request, workspace } = await startTestApp(t);
  const expected = { free: 120, pro: 600, business: 1200 } as const;
  for (const plan of ['free', 'pro', 'business'] as const) {
    const ws = await workspace(plan);
    const res = await request('GET', '/v1/workspace', { token: ws.key });
    assert.equal(res.headers['ratelimit-policy'], `"default";q=${expected[plan]};w=60`);
    assert.equal(res.body.limits.requests_per_minute, expected[plan]);
  }
});
