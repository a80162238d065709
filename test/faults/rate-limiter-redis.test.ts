/**
 * The rate limiter against a private redis-server that freezes (SIGSTOP), with the breaker's clock in
 * the test's hands: calls that meet the frozen Redis give up after the bound and are decided from
 * memory; after three in a row the breaker opens and Redis is not asked at all (the memory bucket
 * still limits); once the probe interval has passed, one call probes the thawed Redis and limits are
 * shared again. Each change of state is logged once.
 */
import assert from 'node:assert/strict';
import test from 'node:test';
import { Redis } from 'ioredis';
import { createRateLimiter } from '../../src/core/pipeline/rate-limit.ts';
import { connectRedisReady } from '../../src/runtime.ts';
import { startPrivateRedis } from '../helpers/private-services.ts';
import { onCleanup } from '../helpers/server-process.ts';

test('a frozen Redis: bounded waits, then none; memory limits meanwhile; a probe restores sharing', { timeout: 120_000 }, async (t) => {
  const redis = await startPrivateRedis(t);
  const client = await connectRedisReady(redis.url);
  const inspector = new Redis(redis.url);
  onCleanup(t, () => {
    client.disconnect();
    inspector.disconnect();
  });
  let now = 0;
  const logged: string[] = [];
  const log = {
    info: (_: object, message?: string) => logged.push(`info: ${message}`),
    warn: (_: object, message?: string) => logged.push(`warn: ${message}`),
    error: (_: object, message?: string) => logged.push(`error: ${message}`),
  };
  const limiter = createRateLimiter(client, log, { timeoutMs: 50, failuresToOpen: 3, probeIntervalMs: 1000, now: () => now });
  const sharedCount = async (bucket: string) => Number(await inspector.get(`cuepoint:rl:5:${bucket}`));

  assert.equal((await limiter.consume('before', 5)).remaining, 4);
  assert.equal(await sharedCount('before'), 1, 'the bucket lives in Redis');

  redis.freeze();
  for (let i = 0; i < 3; i++) assert.equal((await limiter.consume('during', 5)).allowed, true, 'decided from memory');
  assert.equal(limiter.redisState, 'open', 'three failures in a row opened the breaker');
  const decisions = [];
  for (let i = 0; i < 50; i++) decisions.push(await limiter.consume('during', 5));
  assert.equal(limiter.redisState, 'open', 'no probe before the interval');
  assert.deepEqual(
    decisions.slice(0, 3).map((d) => [d.allowed, d.remaining]),
    [
      [true, 1],
      [true, 0],
      [false, 0],
    ],
    'the in-memory bucket still holds the limit',
  );
  assert.deepEqual(logged, ['warn: Redis is not answering; rate limits are per process until it does'], 'logged once');

  redis.thaw();
  now += 1000;
  await limiter.consume('after', 5);
  assert.equal(limiter.redisState, 'closed', 'the probe found Redis answering');
  assert.equal(await sharedCount('after'), 1, 'new buckets live in Redis again');
  await limiter.consume('after', 5);
  assert.equal(await sharedCount('after'), 2);
  assert.deepEqual(logged.slice(1), ['info: Redis answers again; rate limits are shared again'], 'logged once');
});
