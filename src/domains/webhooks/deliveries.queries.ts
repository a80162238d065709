/**
 * The delivery log as the API shows it: listing an endpoint's deliveries, retrying one by hand, and
 * releasing the deliveries a paused endpoint held back. Always scoped by workspace and endpoint.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../core/errors.ts';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import { keysetPage, NEWEST_FIRST } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../core/lists/pagination.ts';
import type { Database, DeliveryStatus, WebhookDeliveryRow } from '../../db/tables/index.ts';
import type { FailureReason } from './send-attempt.ts';
import type { WebhookDelivery } from './webhooks.schemas.ts';

/** `held`: the endpoint is paused, so nothing is due until it is resumed. */
export function toDelivery(row: WebhookDeliveryRow, held: boolean): WebhookDelivery {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    delivery_id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    next_attempt_at: held ? null : iso(row.next_attempt_at),
    last_attempt_at: iso(row.last_attempt_at),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_failure_reason: row.last_failure_reason as FailureReason | null,
    last_duration_ms: row.last_duration_ms,
    last_response_excerpt: row.last_response_excerpt,
    delivered_at: iso(row.delivered_at),
    created_at: row.created_at.toISOString(),
  };
}

/** Newest first, optionally only those with one status, after the keyset position `after`. */
export async function listDeliveries(
  db: Kysely<Database>,
  workspaceId: string,
  endpointId: string,
  filters: { status?: DeliveryStatus },
  page: PageRequest,
): Promise<KeysetRows<WebhookDeliveryRow>> {
  let base = db.selectFrom('webhook_deliveries').where('workspace_id', '=', workspaceId).where('endpoint_id', '=', endpointId);
  if (filters.status) base = base.where('status', '=', filters.status);
  return keysetPage(base, (query) => query.selectAll(), NEWEST_FIRST, page);
}

/**
 * Queues a failed or exhausted delivery to be sent again now. One with no attempts left (exhausted,
 * or a failed test delivery, which is tried once) gets one more attempt; a failed one keeps its
 * remaining attempts and just stops waiting. The same event id, so the same webhook-id: a receiver
 * that did get it after all can tell.
 */
export async function retryDelivery(
  db: Kysely<Database>,
  workspaceId: string,
  endpointId: string,
  deliveryId: string,
  now: Date,
): Promise<WebhookDeliveryRow> {
  const row = await findInWorkspace(
    db,
    'webhook_deliveries',
    { workspaceId, id: deliveryId },
    (query) => query.selectAll().where('endpoint_id', '=', endpointId).forUpdate(),
    'webhook delivery of this endpoint',
  );
  if (row.status === 'succeeded' || row.status === 'pending') {
    const why = row.status === 'succeeded' ? 'was delivered already' : 'is already waiting to be sent';
    throw new AppError('conflict', `This delivery ${why}; only failed or exhausted deliveries can be retried.`, {
      reason: `delivery_${row.status}`,
    });
  }
  if (row.lease_until && row.lease_until.getTime() > now.getTime()) {
    throw new AppError('conflict', 'This delivery is being sent right now; look again in a moment.', { reason: 'delivery_in_flight' });
  }
  return db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      max_attempts: row.attempts >= row.max_attempts ? row.attempts + 1 : row.max_attempts,
      next_attempt_at: now,
      lease_until: null,
      locked_by: null,
      updated_at: now,
    })
    .where('id', '=', deliveryId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * On resume: everything the endpoint held back while paused becomes due now. Answers how many. A
 * failed test delivery has no attempt left and stays as it is (only retry_webhook_delivery resends it).
 */
export async function releaseHeldDeliveries(db: Kysely<Database>, workspaceId: string, endpointId: string, now: Date): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('endpoint_id', '=', endpointId)
    .where('status', 'in', ['pending', 'failed'])
    .where((eb) => eb('attempts', '<', eb.ref('max_attempts')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
