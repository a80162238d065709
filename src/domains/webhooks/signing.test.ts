/**
 * Signing and scheduling without a network: our signatures are the ones the standardwebhooks library
 * computes; which secrets sign at a given instant around a rotation (an injected clock, no waiting);
 * the retry schedule's jitter bounds and Retry-After handling.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createSealedBox } from '../../core/secrets/sealed-box.ts';
import { MAX_RETRY_AFTER_MS, maxAttemptsFor, parseRetryAfter, retryDelayMs } from './retry-policy.ts';
import { signatureHeader } from './signature.ts';
import { generateWebhookSecret, ROTATION_OVERLAP_MS, signingSecretsAt, UnreadableSecretError } from './webhook-secrets.ts';

test('signatures match the standardwebhooks library, one per secret, space-separated', () => {
  const [a, b] = [generateWebhookSecret(), generateWebhookSecret()];
  const body = JSON.stringify({ id: 'e1', type: 'video.ready', data: { title: 'Café ☕' } });
  const at = new Date('2026-11-21T10:00:00Z');
  const header = signatureHeader('msg_1', at.getTime() / 1000, body, [a, b]);
  assert.equal(header, `${new Webhook(a).sign('msg_1', at, body)} ${new Webhook(b).sign('msg_1', at, body)}`);
  // Any change to id, timestamp or body breaks it.
  assert.notEqual(signatureHeader('msg_2', at.getTime() / 1000, body, [a]), new Webhook(a).sign('msg_1', at, body));
  assert.notEqual(signatureHeader('msg_1', at.getTime() / 1000 + 1, body, [a]), new Webhook(a).sign('msg_1', at, body));
  assert.notEqual(signatureHeader('msg_1', at.getTime() / 1000, `${body} `, [a]), new Webhook(a).sign('msg_1', at, body));
});

test('around a rotation: both secrets sign until the overlap ends, then the new one alone', () => {
  const box = createSealedBox('a-service-secret-a-service-secret-0001', 'webhook signing secrets');
  const [oldSecret, newSecret] = [generateWebhookSecret(), generateWebhookSecret()];
  const rotatedAt = Date.parse('2026-11-21T10:00:00Z');
  const endpoint = {
    secret_sealed: box.seal(newSecret),
    previous_secret_sealed: box.seal(oldSecret),
    previous_secret_expires_at: new Date(rotatedAt + ROTATION_OVERLAP_MS),
  };
  const at = (ms: number) => signingSecretsAt(endpoint, box, new Date(rotatedAt + ms));
  assert.deepEqual(at(0), [newSecret, oldSecret]);
  assert.deepEqual(at(ROTATION_OVERLAP_MS - 1), [newSecret, oldSecret]);
  assert.deepEqual(at(ROTATION_OVERLAP_MS), [newSecret]);
  assert.deepEqual(at(ROTATION_OVERLAP_MS * 2), [newSecret]);
  assert.equal(ROTATION_OVERLAP_MS, 24 * 60 * 60 * 1000);

  // Sealed under another service secret: the current one cannot be used, the previous one is skipped.
  const other = createSealedBox('another-service-secret-another-0002', 'webhook signing secrets');
  assert.throws(() => signingSecretsAt(endpoint, other, new Date(rotatedAt)), UnreadableSecretError);
  const mixed = { ...endpoint, secret_sealed: other.seal(newSecret) };
  assert.deepEqual(signingSecretsAt(mixed, other, new Date(rotatedAt)), [newSecret]);
});

test('retry delays: the schedule with ±20% jitter, never sooner than Retry-After (capped at a day)', () => {
  const schedule = [5000, 300_000, 1_800_000];
  assert.equal(maxAttemptsFor(schedule), 4);
  assert.equal(
    retryDelayMs(1, schedule, null, () => 0),
    4000,
  );
  assert.equal(
    retryDelayMs(1, schedule, null, () => 0.5),
    5000,
  );
  assert.equal(
    retryDelayMs(1, schedule, null, () => 0.999999),
    6000,
  );
  assert.equal(
    retryDelayMs(3, schedule, null, () => 0.5),
    1_800_000,
  );
  assert.equal(
    retryDelayMs(9, schedule, null, () => 0.5),
    1_800_000,
    'past the end, the last step',
  );
  assert.equal(
    retryDelayMs(1, schedule, 60_000, () => 0.5),
    60_000,
  );
  assert.equal(
    retryDelayMs(1, schedule, 1000, () => 0.5),
    5000,
    'a shorter Retry-After does not hurry the schedule',
  );
  assert.equal(
    retryDelayMs(1, schedule, 10 * MAX_RETRY_AFTER_MS, () => 0.5),
    MAX_RETRY_AFTER_MS,
  );

  const now = new Date('2026-11-21T10:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter(' 0 ', now), 0);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:01:30 GMT', now), 90_000);
  assert.equal(parseRetryAfter('Fri, 20 Nov 2026 10:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), null);
  assert.equal(parseRetryAfter(null, now), null);
  assert.equal(parseRetryAfter('999999999', now), MAX_RETRY_AFTER_MS);
});
