/**
 * One rate-limit bucket per credential, shared by REST and MCP (DESIGN §4): a fixed one-minute window
 * of N requests, N from the plan or from CUEPOINT_RATE_LIMIT. In memory for one process, in Redis when
 * REDIS_URL is set so every API process draws from the same bucket (Redis increments atomically, so
 * parallel bursts cannot overshoot).
 *
 * Redis must never slow the API down. Each call waits for it at most `timeoutMs` (tens of
 * milliseconds); a call that fails or times out is decided by this process's own in-memory bucket
 * instead. A circuit breaker stops asking a Redis that keeps failing, so a hung one costs requests
 * nothing until a probe, once per `probeIntervalMs`, finds it answering again. Each change is logged
 * once: when limits stop being shared, and when they are shared again.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type * as Flexible from 'rate-limiter-flexible';
import type { Log } from '../context.ts';
import { type BreakerState, createCircuitBreaker } from './circuit-breaker.ts';

// The package's index loads every store it supports (Mongo, MySQL, DynamoDB, etcd, …: 36 files, a
// few hundredths of a second of every start); these are the files of the three classes used here,
// the Redis one only when a limiter is given Redis.
const require = createRequire(import.meta.url);
type RateLimiterAbstract = Flexible.RateLimiterAbstract;
const RateLimiterMemory: typeof Flexible.RateLimiterMemory = require('rate-limiter-flexible/lib/RateLimiterMemory.js');
const RateLimiterRes: typeof Flexible.RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes.js');
const redisLimiterClass = (): typeof Flexible.RateLimiterRedis => require('rate-limiter-flexible/lib/RateLimiterRedis.js');

export const WINDOW_SECONDS = 60;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export interface RateLimiter {
  consume(bucket: string, limit: number): Promise<RateDecision>;
  /** Gives back one request taken from the bucket: one that failed on our side (an outage) is not the caller's to count. */
  refund(bucket: string, limit: number): Promise<void>;
  /** Whether decisions currently go to Redis ('closed'), or to memory while it is not trusted. */
  readonly redisState: BreakerState | 'none';
}

export interface RateLimiterOptions {
  /** The longest a request waits for Redis before memory decides. Default 50 ms. */
  timeoutMs?: number;
  /** Failures in a row (errors or timeouts) after which Redis is no longer asked. Default 3. */
  failuresToOpen?: number;
  /** How long Redis is left alone before one request probes it again. Default 2 s. */
  probeIntervalMs?: number;
  /** Milliseconds; tests pass their own clock to step the breaker. */
  now?: () => number;
}

export const REDIS_TIMEOUT_MS = 50;
/** The most CUEPOINT_REDIS_TIMEOUT_MS may be; the Redis client's own command timeout sits above it. */
export const MAX_REDIS_TIMEOUT_MS = 10_000;
const FAILURES_TO_OPEN = 3;
const PROBE_INTERVAL_MS = 2000;

/** Redis did not answer within the limiter's bound. */
export class RedisTimeoutError extends Error {
  override name = 'RedisTimeoutError';
}

export function createRateLimiter(redis?: Redis, log?: Log, options: RateLimiterOptions = {}): RateLimiter {
  const timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS;
  const memory = new Map<number, RateLimiterAbstract>();
  const shared = new Map<number, RateLimiterAbstract>();
  const settings = (points: number) => ({ points, duration: WINDOW_SECONDS, keyPrefix: `cuepoint:rl:${points}` });
  const memoryFor = (points: number) => cached(memory, points, () => new RateLimiterMemory(settings(points)));
  const sharedFor = (client: Redis, points: number) =>
    cached(shared, points, () => new (redisLimiterClass())({ ...settings(points), storeClient: client, rejectIfRedisNotReady: true }));
  let lastFailure: unknown;
  const breaker = createCircuitBreaker({
    failuresToOpen: options.failuresToOpen ?? FAILURES_TO_OPEN,
    probeIntervalMs: options.probeIntervalMs ?? PROBE_INTERVAL_MS,
    now: options.now ?? (() => performance.now()),
    onChange: (from, to) => {
      // Probes that keep failing flip between open and half-open; only leaving and regaining the
      // shared limit is news.
      if (from === 'closed') {
        log?.warn({ err: lastFailure }, 'Redis is not answering; rate limits are per process until it does');
      } else if (to === 'closed') {
        log?.info({}, 'Redis answers again; rate limits are shared again');
      }
    },
  });

  return {
    get redisState() {
      return redis ? breaker.state : 'none';
    },
    async consume(bucket, limit) {
      const permit = redis ? breaker.permit() : undefined;
      if (!redis || !permit) return take(memoryFor(limit), bucket, limit);
      try {
        const result = await withinDeadline(take(sharedFor(redis, limit), bucket, limit), timeoutMs);
        permit.succeeded();
        return result;
      } catch (error) {
        lastFailure = error;
        permit.failed();
        return take(memoryFor(limit), bucket, limit);
      }
    },
    async refund(bucket, limit) {
      const permit = redis ? breaker.permit() : undefined;
      if (!redis || !permit) {
        await memoryFor(limit).reward(bucket, 1);
        return;
      }
      try {
        await withinDeadline(sharedFor(redis, limit).reward(bucket, 1), timeoutMs);
        permit.succeeded();
      } catch (error) {
        lastFailure = error;
        permit.failed();
        await memoryFor(limit).reward(bucket, 1);
      }
    },
  };
}

async function take(limiter: RateLimiterAbstract, bucket: string, limit: number): Promise<RateDecision> {
  try {
    return decision(true, limit, await limiter.consume(bucket));
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return decision(false, limit, rejection);
    throw rejection;
  }
}

/**
 * `work`, or a RedisTimeoutError once `ms` have passed. When the timer fires, pending I/O gets one
 * turn of the event loop before the verdict: if this process was busy, Redis's reply may already be
 * waiting in the socket, and a busy process is no reason to stop trusting Redis.
 */
function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (!settled) reject(new RedisTimeoutError(`Redis did not answer within ${ms} ms`));
      });
    }, ms);
    work.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function cached(map: Map<number, RateLimiterAbstract>, points: number, make: () => RateLimiterAbstract): RateLimiterAbstract {
  let limiter = map.get(points);
  if (!limiter) {
    limiter = make();
    map.set(points, limiter);
  }
  return limiter;
}

function decision(allowed: boolean, limit: number, res: Flexible.RateLimiterRes): RateDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

/** The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), plus Retry-After on 429. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"default";q=${d.limit};w=${WINDOW_SECONDS}`,
    RateLimit: `"default";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(d.resetSeconds);
  return headers;
}
