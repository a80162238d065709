/**
 * One rate-limit bucket per credential, shared by REST and MCP (DESIGN §4): a fixed one-minute window
 * of N requests, N from the plan or from CUEPOINT_RATE_LIMIT. In memory for one process, in Redis when
 * REDIS_URL is set so every API process draws from the same bucket (Redis increments atomically, so
 * parallel bursts cannot overshoot). If Redis fails to answer, the request is decided by this
 * process's own in-memory bucket instead of failing or hanging, and a warning says the limit is no
 * longer shared.
 */
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Log } from './context.ts';

export const WINDOW_SECONDS = 60;
const FALLBACK_WARNING_INTERVAL_MS = 30_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export interface RateLimiter {
  consume(bucket: string, limit: number): Promise<RateDecision>;
}

export function createRateLimiter(redis?: Redis, log?: Log): RateLimiter {
  const memory = new Map<number, RateLimiterAbstract>();
  const shared = new Map<number, RateLimiterAbstract>();
  const options = (points: number) => ({ points, duration: WINDOW_SECONDS, keyPrefix: `cuepoint:rl:${points}` });
  const memoryFor = (points: number) => cached(memory, points, () => new RateLimiterMemory(options(points)));
  const sharedFor = (client: Redis, points: number) =>
    cached(shared, points, () => new RateLimiterRedis({ ...options(points), storeClient: client, rejectIfRedisNotReady: true }));
  let lastWarning = 0;

  const take = async (limiter: RateLimiterAbstract, bucket: string, limit: number): Promise<RateDecision> => {
    try {
      return decision(true, limit, await limiter.consume(bucket));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(false, limit, rejection);
      throw rejection;
    }
  };

  return {
    async consume(bucket, limit) {
      if (!redis) return take(memoryFor(limit), bucket, limit);
      try {
        return await take(sharedFor(redis, limit), bucket, limit);
      } catch (error) {
        if (Date.now() - lastWarning > FALLBACK_WARNING_INTERVAL_MS) {
          lastWarning = Date.now();
          log?.warn({ err: error }, 'Redis did not answer; rate limits fall back to this process alone until it does');
        }
        return take(memoryFor(limit), bucket, limit);
      }
    },
  };
}

function cached(map: Map<number, RateLimiterAbstract>, points: number, make: () => RateLimiterAbstract): RateLimiterAbstract {
  let limiter = map.get(points);
  if (!limiter) {
    limiter = make();
    map.set(points, limiter);
  }
  return limiter;
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateDecision {
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
