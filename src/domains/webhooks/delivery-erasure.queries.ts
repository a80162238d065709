/**
 * Erasing a person from the delivery log (erase_lead): a delivery's payload is the event it carries,
 * and its response excerpt may echo it back, so the deliveries of the events erased from the outbox
 * go with them. One still pending is then never sent; one already sent stays with its receiver, out
 * of the service's reach (docs/people.md, "Deleting and erasing").
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** Deletes the workspace's deliveries of these events, whatever their state; answers how many went. */
export async function forgetDeliveriesOfEvents(db: Kysely<Database>, workspaceId: string, eventIds: readonly string[]): Promise<number> {
  if (eventIds.length === 0) return 0;
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('workspace_id', '=', workspaceId)
    // (endpoint, event) is indexed: the workspace's endpoints, then the events.
    .where('endpoint_id', 'in', db.selectFrom('webhook_endpoints').select('id').where('workspace_id', '=', workspaceId))
    .where(sql<boolean>`event_id = any(${[...eventIds]}::uuid[])`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
