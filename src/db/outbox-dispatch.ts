/**
 * The outbox's far end: webhook fan-out takes the events not yet dispatched, oldest first, and marks
 * them dispatched in the same transaction as the deliveries it makes of them, so no event is lost
 * and none is fanned out twice (src/domains/webhooks/delivery-queue.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from './tables/index.ts';

/**
 * Up to `limit` undispatched events in the order they were recorded, locked until the caller's
 * transaction ends; rows another fan-out holds are skipped, so two senders never take one event.
 */
export function lockUndispatchedEvents(trx: Kysely<Database>, limit: number) {
  return trx
    .selectFrom('events')
    .select(['id', 'workspace_id', 'type', 'data', 'created_at'])
    .where('dispatched_at', 'is', null)
    .orderBy('sequence')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/** Marks these events dispatched at `at`, in the transaction that made their deliveries. */
export async function markEventsDispatched(trx: Kysely<Database>, eventIds: readonly string[], at: Date): Promise<void> {
  await trx
    .updateTable('events')
    .set({ dispatched_at: at })
    .where('id', 'in', [...eventIds])
    .execute();
}
