/**
 * The limits a public write draws from before it writes: its client address's (address-limits.ts),
 * and a surface's own per page view, browser or email. One unit from each, in order, on the API's
 * rate limiter (core/pipeline/rate-limit.ts: one-minute windows, shared through Redis when
 * REDIS_URL is set, this process's memory while Redis is not answering). The first bucket that is
 * empty refuses the request with `429 rate_limited` and Retry-After before anything is written.
 */
import { AppError } from '../../../core/errors.ts';
import type { RateLimiter } from '../../../core/pipeline/rate-limit.ts';
import { outageError } from '../../../core/pipeline/unavailable.ts';

export interface WriteLimit {
  /** The rate limiter's key: what is counted (`lead-capture:token:<session>`). */
  bucket: string;
  /** Writes a minute. */
  limit: number;
  /** What the 429 says there were too many of: "submissions", "requests from your network". */
  tooMany: string;
}

/** One unit from each limit, in order, or `429 rate_limited` with Retry-After naming the first that is spent. */
async function drawWriteLimits(limiter: RateLimiter, limits: readonly WriteLimit[]): Promise<void> {
  for (const { bucket, limit, tooMany } of limits) {
    const decision = await limiter.consume(bucket, limit);
    if (decision.allowed) continue;
    throw new AppError(
      'rate_limited',
      `Too many ${tooMany}; try again in ${decision.resetSeconds} seconds.`,
      { retry_after_seconds: decision.resetSeconds },
      { 'Retry-After': String(decision.resetSeconds) },
    );
  }
}

/**
 * `write` once `limits` allow it. A write that meets an outage gives its units back: the 503 says
 * "retry in 5 s", and a person retrying through an outage must not end up limited for a minute.
 */
export async function limitedWrite<T>(limiter: RateLimiter, limits: readonly WriteLimit[], write: () => Promise<T>): Promise<T> {
  await drawWriteLimits(limiter, limits);
  try {
    return await write();
  } catch (error) {
    if (outageError(error)) for (const { bucket, limit } of limits) await limiter.refund(bucket, limit);
    throw error;
  }
}
