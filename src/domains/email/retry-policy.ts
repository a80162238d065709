/**
 * When to try a message again after a temporary failure (a 4xx answer, a connection that failed):
 * exponential backoff from 30 s, doubling to at most 2 h, twelve attempts over about eight hours, so
 * a server greylisting us or down for a morning still gets the message. Each delay is drawn between
 * half and all of its step ("equal jitter"), so messages that failed together do not return together.
 */

export interface EmailRetryPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  /** Attempts a message gets, the first included; after the last temporary failure it ends failed. */
  maxAttempts: number;
}

export const EMAIL_RETRY_POLICY: EmailRetryPolicy = Object.freeze({
  firstDelayMs: 30_000,
  maxDelayMs: 2 * 60 * 60 * 1000,
  maxAttempts: 12,
});

/** The delay after failed attempt number `attempt` (1-based). */
export function emailRetryDelayMs(attempt: number, policy: EmailRetryPolicy, random = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + (step / 2) * random());
}
