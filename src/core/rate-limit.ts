/**
 * One rate-limit bucket per credential, shared by REST and MCP (DESIGN §4): a fixed one-minute window
 * of N requests, N from the plan or from CUEPOINT_RATE_LIMIT. In memory for one process, in Redis when
 * REDIS_URL is set so every API process draws from the same bucket (Redis increments atomically, so
 * parallel bursts cannot overshoot). If Redis stops answering, each process falls back to its own
 * in-memory bucket rather than failing requests or hanging on them.
 */
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

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
}

export function createRateLimiter(redis?: Redis): RateLimiter {
  const limiters = new Map<number, RateLimiterAbstract>();
  const limiterFor = (points: number): RateLimiterAbstract => {
    let limiter = limiters.get(points);
    if (!limiter) {
      const options = { points, duration: WINDOW_SECONDS, keyPrefix: `cuepoint:rl:${points}` };
      limiter = redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
      limiters.set(points, limiter);
    }
    return limiter;
  };

  return {
    async consume(bucket, limit) {
      try {
        const res = await limiterFor(limit).consume(bucket);
        return decision(true, limit, res);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(false, limit, rejection);
        throw rejection;
      }
    },
  };
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
