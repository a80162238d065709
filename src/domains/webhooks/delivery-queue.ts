/**
 * The deliveries table as the sender's work queue (DESIGN §2), with its own lease columns rather than
 * a job per delivery: a delivery row is at once the log entry callers list and the work item, so its
 * state lives in one place. Fan-out turns outbox events into one delivery per subscribed endpoint in
 * one transaction with marking them dispatched (no event lost, none fanned out twice). Senders claim
 * due rows with FOR UPDATE SKIP LOCKED, counting the attempt and taking a lease; the result is
 * recorded only if the attempt number still matches, so a sender whose lease lapsed (it stalled, or
 * was killed and its delivery resent by another) changes nothing. Every function takes `now`.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { PLAN_NAMES, PLANS } from '../../core/plans.ts';
import { lockUndispatchedEvents, markEventsDispatched } from '../../db/outbox-dispatch.ts';
import type { Database, DeliveryStatus, WebhookDeliveryRow } from '../../db/tables/index.ts';
import { workspaceSettings } from '../workspace/index.ts';
import { eventPayload } from './event-payload.ts';
import { maxAttemptsFor, retryDelayMs } from './retry-policy.ts';
import type { AttemptResult } from './send-attempt.ts';
import type { SealedSecrets } from './webhook-secrets.ts';
import { ALL_EVENTS } from './webhooks.schemas.ts';

const INSERT_CHUNK = 500;
const PLANS_WITH_WEBHOOKS = PLAN_NAMES.filter((plan) => PLANS[plan].entitlements.has('webhooks'));

/**
 * Turns up to `limit` undispatched outbox events into deliveries: one per endpoint of the event's
 * workspace that subscribes to its type and existed when it happened, paused endpoints included
 * (their deliveries wait). Answers how many events and deliveries it handled.
 */
export async function fanOutEvents(
  db: Kysely<Database>,
  options: { now: Date; limit: number; schedule: readonly number[] },
): Promise<{ events: number; deliveries: number }> {
  return db.transaction().execute(async (trx) => {
    const events = await lockUndispatchedEvents(trx, options.limit);
    if (events.length === 0) return { events: 0, deliveries: 0 };
    const workspaceIds = [...new Set(events.map((e) => e.workspace_id))];
    const endpoints = await trx
      .selectFrom('webhook_endpoints as e')
      .innerJoin(workspaceSettings(trx).as('w'), 'w.id', 'e.workspace_id')
      .select(['e.id', 'e.workspace_id', 'e.events', 'e.created_at', 'w.mask_pii'])
      .where('e.workspace_id', 'in', workspaceIds)
      // A workspace moved to a plan without webhooks keeps its endpoints but gets no new deliveries.
      .where('w.plan', 'in', PLANS_WITH_WEBHOOKS)
      .execute();
    const maxAttempts = maxAttemptsFor(options.schedule);
    const rows = events.flatMap((event) => {
      // The synthetic test event is only ever sent by test_webhook_endpoint, to the endpoint tested.
      if (event.type === 'webhook.test') return [];
      const targets = endpoints.filter(
        (e) =>
          e.workspace_id === event.workspace_id &&
          (e.events.includes(ALL_EVENTS) || e.events.includes(event.type)) &&
          e.created_at.getTime() <= event.created_at.getTime(),
      );
      if (targets.length === 0) return [];
      const payload = (mask: boolean) =>
        eventPayload(
          {
            id: event.id,
            type: event.type,
            workspaceId: event.workspace_id,
            createdAt: event.created_at,
            data: event.data as Record<string, unknown>,
          },
          mask,
        );
      return targets.map((endpoint) => ({
        id: randomUUID(),
        workspace_id: event.workspace_id,
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_type: event.type,
        payload: payload(endpoint.mask_pii),
        status: 'pending' as const,
        max_attempts: maxAttempts,
        next_attempt_at: options.now,
        // The event's time, so the log lists deliveries in the order things happened.
        created_at: event.created_at,
        updated_at: options.now,
      }));
    });
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx
        .insertInto('webhook_deliveries')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
        .execute();
    }
    await markEventsDispatched(
      trx,
      events.map((e) => e.id),
      options.now,
    );
    return { events: events.length, deliveries: rows.length };
  });
}

/** A claimed delivery with what sending it needs from its endpoint. */
export interface ClaimedDelivery extends SealedSecrets {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  event_id: string;
  payload: string;
  /** This attempt's number: the fencing token for recordAttempt. */
  attempts: number;
  max_attempts: number;
  url: string;
}

/**
 * Claims up to `limit` due deliveries of active endpoints: pending or failed, their time come, not
 * leased by a live sender (a lapsed lease is a dead sender's), attempts left. Counts the attempt.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  options: { workerId: string; leaseMs: number; now: Date; limit: number },
): Promise<ClaimedDelivery[]> {
  const { now } = options;
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const result = await sql<ClaimedDelivery>`
    update webhook_deliveries d
    set attempts = d.attempts + 1, lease_until = ${leaseUntil}, locked_by = ${options.workerId}, updated_at = ${now}
    from webhook_endpoints e
    where e.id = d.endpoint_id and d.id in (
      select d2.id from webhook_deliveries d2 join webhook_endpoints e2 on e2.id = d2.endpoint_id
      where d2.status in ('pending', 'failed') and d2.next_attempt_at <= ${now}
        and (d2.lease_until is null or d2.lease_until < ${now})
        and d2.attempts < d2.max_attempts and e2.active
      order by d2.next_attempt_at
      limit ${options.limit}
      for update of d2 skip locked
    )
    returning d.id, d.workspace_id, d.endpoint_id, d.event_id, d.payload, d.attempts, d.max_attempts,
      e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at`.execute(db);
  return result.rows;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/** What an attempt's result means for the delivery: done, retried later on the schedule, or exhausted. */
export function outcomeOf(
  delivery: { attempts: number; max_attempts: number },
  result: AttemptResult,
  schedule: readonly number[],
  now: Date,
  random = Math.random,
): AttemptOutcome {
  if (result.succeeded) return { status: 'succeeded', nextAttemptAt: null };
  if (delivery.attempts >= delivery.max_attempts) return { status: 'exhausted', nextAttemptAt: null };
  const delay = retryDelayMs(delivery.attempts, schedule, result.retryAfterMs, random);
  return { status: 'failed', nextAttemptAt: new Date(now.getTime() + delay) };
}

/**
 * Records an attempt, fenced by its number: false when the delivery has moved on without this
 * sender (lease lapsed and claimed again, retried by hand, or deleted with its endpoint). A 410
 * answer also pauses the endpoint, saying why; what it holds is sent once it is resumed.
 */
export async function recordAttempt(
  db: Kysely<Database>,
  delivery: { id: string; endpoint_id: string; attempts: number },
  result: AttemptResult,
  outcome: AttemptOutcome,
  attemptedAt: Date,
): Promise<boolean> {
  const finishedAt = new Date(attemptedAt.getTime() + result.durationMs);
  const record = (trx: Kysely<Database>) =>
    trx
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.status,
        next_attempt_at: outcome.nextAttemptAt,
        lease_until: null,
        locked_by: null,
        last_attempt_at: attemptedAt,
        last_status_code: result.statusCode,
        last_error: result.error,
        last_failure_reason: result.failureReason,
        last_duration_ms: result.durationMs,
        last_response_excerpt: result.excerpt,
        ...(result.succeeded ? { delivered_at: finishedAt } : {}),
        updated_at: finishedAt,
      })
      .where('id', '=', delivery.id)
      .where('attempts', '=', delivery.attempts)
      .where('status', 'in', ['pending', 'failed'])
      .executeTakeFirst()
      .then((updated) => updated.numUpdatedRows > 0n);
  // The common case is one statement; only a 410 also touches the endpoint, and then both or neither.
  if (!result.gone) return record(db);
  return db.transaction().execute(async (trx) => {
    if (!(await record(trx))) return false;
    await trx
      .updateTable('webhook_endpoints')
      .set({
        active: false,
        disabled_reason: `The endpoint answered 410 Gone at ${attemptedAt.toISOString()}; set active to true once it receives events again.`,
        updated_at: attemptedAt,
      })
      .where('id', '=', delivery.endpoint_id)
      .execute();
    return true;
  });
}

/**
 * Deliveries whose senders kept dying: lease lapsed with no attempts left. They end exhausted, with
 * the reason, rather than waiting forever. Answers how many.
 */
export async function reapAbandonedDeliveries(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'exhausted',
      next_attempt_at: null,
      lease_until: null,
      locked_by: null,
      last_error: 'The sender stopped before recording the last attempt’s result.',
      updated_at: now,
    })
    .where('status', 'in', ['pending', 'failed'])
    .where('lease_until', '<', now)
    .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A delivery of the synthetic test event to one endpoint, already claimed by the caller (its first
 * and only attempt, leased), so no sender picks it up while test_webhook_endpoint sends it itself.
 */
export async function insertTestDelivery(
  db: Kysely<Database>,
  fields: { workspaceId: string; endpointId: string; eventId: string; payload: string; leaseMs: number },
  now: Date,
): Promise<WebhookDeliveryRow> {
  return db
    .insertInto('webhook_deliveries')
    .values({
      id: randomUUID(),
      workspace_id: fields.workspaceId,
      endpoint_id: fields.endpointId,
      event_id: fields.eventId,
      event_type: 'webhook.test',
      payload: fields.payload,
      status: 'pending',
      attempts: 1,
      max_attempts: 1,
      next_attempt_at: now,
      lease_until: new Date(now.getTime() + fields.leaseMs),
      locked_by: 'test_webhook_endpoint',
      last_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
