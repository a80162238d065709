/** The email retry delays: doubling from the first step to the cap, each drawn between half and all of its step. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EMAIL_RETRY_POLICY, emailRetryDelayMs } from './retry-policy.ts';

test('delays double from 30 s to at most 2 h, jittered between half and all of the step', () => {
  const full = (attempt: number) => emailRetryDelayMs(attempt, EMAIL_RETRY_POLICY, () => 1);
  const half = (attempt: number) => emailRetryDelayMs(attempt, EMAIL_RETRY_POLICY, () => 0);
  assert.deepEqual([1, 2, 3, 4].map(full), [30_000, 60_000, 120_000, 240_000]);
  assert.deepEqual([1, 2].map(half), [15_000, 30_000]);
  assert.equal(full(9), 2 * 60 * 60 * 1000);
  assert.equal(full(40), 2 * 60 * 60 * 1000, 'capped, however many attempts');
  const total = Array.from({ length: EMAIL_RETRY_POLICY.maxAttempts - 1 }, (_, i) => full(i + 1)).reduce((a, b) => a + b, 0);
  assert.ok(total > 8 * 3600_000 && total < 9 * 3600_000, `about eight hours of trying at most (${total / 3600_000} h)`);
});
