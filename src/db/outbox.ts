/**
 * The events outbox. Every write records what happened in the same transaction as the change, so no
 * change goes without its event and no event without its change; webhook delivery reads from here.
 * Data is checked against its type's schema first (event-catalog.ts): a wrong shape fails the write
 * (and its test) instead of reaching a customer.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Emit } from '../core/context.ts';
import { checkEventData, type EventData, type EventType } from '../event-catalog.ts';
import type { Database } from './tables/index.ts';

export async function recordEvent<T extends EventType>(
  db: Kysely<Database>,
  event: { workspaceId: string; type: T; data: EventData<T>; at: Date },
): Promise<string> {
  checkEventData(event.type, event.data);
  const id = randomUUID();
  await db
    .insertInto('events')
    .values({ id, workspace_id: event.workspaceId, type: event.type, data: JSON.stringify(event.data), created_at: event.at })
    .execute();
  return id;
}

/**
 * The Emit of one change: every event it records belongs to `workspaceId` and happened `at`, in the
 * transaction `db`. The pipeline builds `ctx.emit` with it (through PipelineDeps); a write that owns
 * its transaction (a public form, a worker, the demo seed) builds its own.
 */
export function outboxEmitter(db: Kysely<Database>, workspaceId: string, at: Date): Emit {
  return async (type, data) => {
    await recordEvent(db, { workspaceId, type, data, at });
  };
}
