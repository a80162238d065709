/**
 * When to try a failed delivery again: the configured schedule (DESIGN §4: about 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h), each step stretched or shrunk by up to 20% at random so that deliveries that
 * failed together do not all come back together; never sooner than the receiver's Retry-After.
 */

/** A receiver cannot hold a delivery back longer than this with Retry-After. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
const JITTER = 0.2;

/** Attempts a delivery gets: the first, then one per step of the schedule. */
export function maxAttemptsFor(schedule: readonly number[]): number {
  return schedule.length + 1;
}

/** Delay before the attempt after failed attempt number `attempt` (1-based). */
export function retryDelayMs(attempt: number, schedule: readonly number[], retryAfterMs: number | null, random = Math.random): number {
  const step = schedule[Math.min(attempt, schedule.length) - 1] ?? schedule.at(-1) ?? 0;
  const jittered = Math.round(step * (1 - JITTER + 2 * JITTER * random()));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (!value) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}
