/**
 * The webhook worker: fan-out turns new outbox events into deliveries, and the sender sends due
 * deliveries, up to `concurrency` at once, each under a lease (src/domains/webhooks/delivery-queue.ts).
 * At-least-once: a sender killed mid-attempt leaves a lapsed lease and the delivery is sent again, so a
 * receiver may see an event twice (the same webhook-id), at most once more per sender death for each
 * delivery that sender had in flight. Idle, it looks for work every `pollMs`; fan-out that finds
 * events wakes the sender at once, so a new event leaves within one poll interval.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Log, OutboundSettings } from '../core/context.ts';
import { createSealedBox } from '../core/secrets/sealed-box.ts';
import { abortableSleep } from '../core/values/abortable-sleep.ts';
import { createWaker } from '../core/values/waker.ts';
import type { Database } from '../db/tables/index.ts';
import {
  type AttemptResult,
  type ClaimedDelivery,
  claimDueDeliveries,
  fanOutEvents,
  outcomeOf,
  reapAbandonedDeliveries,
  recordAttempt,
  sendAttempt,
  signingSecretsAt,
  UnreadableSecretError,
  WEBHOOK_SECRET_PURPOSE,
} from '../domains/webhooks/index.ts';

const FAN_OUT_BATCH = 200;
const REAP_EVERY_MS = 5000;

export interface WebhookWorkerOptions {
  db: Kysely<Database>;
  /** The service secret the endpoints' signing secrets are sealed under. */
  secret: string;
  log: Log;
  outbound: OutboundSettings;
  /** Delays before each retry (Config.webhooks.retrySchedule). */
  retrySchedule: readonly number[];
  pollMs: number;
  concurrency: number;
  /** Default: twice the attempt timeout plus a second, so a live sender's lease never lapses mid-attempt. */
  leaseMs?: number;
  clock?: () => Date;
  random?: () => number;
}

export interface WebhookWorker {
  /** Stops claiming, abandons attempts in flight (their leases lapse and they are sent again), waits for the loops. */
  stop(): Promise<void>;
}

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { db, log, outbound } = options;
  const clock = options.clock ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 2 * outbound.webhookTimeoutMs + 1000;
  const box = createSealedBox(options.secret, WEBHOOK_SECRET_PURPOSE);
  const workerId = `webhooks-${process.pid}-${randomUUID().slice(0, 8)}`;
  const stopping = new AbortController();
  const senderWake = createWaker(stopping.signal);
  const inFlight = new Set<Promise<void>>();

  const deliver = async (delivery: ClaimedDelivery): Promise<void> => {
    const attemptedAt = clock();
    let result: AttemptResult;
    try {
      const secrets = signingSecretsAt(delivery, box, attemptedAt);
      result = await sendAttempt(
        { url: delivery.url, messageId: delivery.event_id, body: delivery.payload, secrets },
        { outbound, now: attemptedAt, signal: stopping.signal },
      );
    } catch (error) {
      if (!(error instanceof UnreadableSecretError)) throw error;
      result = unsent(error.message);
    }
    // Stopped mid-attempt: not the receiver's doing. The lease lapses and another attempt follows.
    if (stopping.signal.aborted) return;
    const outcome = outcomeOf(delivery, result, options.retrySchedule, clock(), options.random);
    if (!(await recordAttempt(db, delivery, result, outcome, attemptedAt))) {
      log.warn({ delivery: delivery.id, attempt: delivery.attempts }, 'webhook attempt finished after its lease was taken over; ignored');
    }
  };

  const track = (delivery: ClaimedDelivery) => {
    const running = deliver(delivery)
      .catch((err: unknown) => log.warn({ err, delivery: delivery.id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        inFlight.delete(running);
        senderWake.wake();
      });
    inFlight.add(running);
  };

  const sender = async () => {
    let lastReap = 0;
    while (!stopping.signal.aborted) {
      try {
        const now = clock();
        if (now.getTime() - lastReap >= REAP_EVERY_MS) {
          lastReap = now.getTime();
          await reapAbandonedDeliveries(db, now);
        }
        const room = options.concurrency - inFlight.size;
        if (room > 0) {
          const claimed = await claimDueDeliveries(db, { workerId, leaseMs, now, limit: room });
          for (const delivery of claimed) track(delivery);
          if (claimed.length === room) continue; // maybe more due: look again once a slot frees
        }
      } catch (err) {
        log.warn({ err }, 'webhook deliveries unavailable; retrying');
      }
      await senderWake.wait(options.pollMs);
    }
  };

  const fanOut = async () => {
    while (!stopping.signal.aborted) {
      try {
        const { events } = await fanOutEvents(db, { now: clock(), limit: FAN_OUT_BATCH, schedule: options.retrySchedule });
        if (events > 0) {
          senderWake.wake();
          continue;
        }
      } catch (err) {
        log.warn({ err }, 'webhook fan-out unavailable; retrying');
      }
      await abortableSleep(options.pollMs, stopping.signal);
    }
  };

  const loops = [sender(), fanOut()];
  return {
    async stop() {
      stopping.abort();
      await Promise.all(loops);
      await Promise.allSettled([...inFlight]);
    },
  };
}

function unsent(message: string): AttemptResult {
  return {
    succeeded: false,
    statusCode: null,
    durationMs: 0,
    excerpt: null,
    failureReason: null,
    error: message,
    retryAfterMs: null,
    gone: false,
  };
}
