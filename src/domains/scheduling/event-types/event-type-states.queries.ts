/**
 * Whether an event type is active, for other areas checking a reference to one (update_video's
 * "Book a call"): a table to join in the checker's own statement, beside the workspace's plan.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, EventTypeRow } from '../../../db/tables/index.ts';

/** The workspace's event types as (id, workspace_id, active), to join by id (`.as('e')`). */
export function eventTypeStates(
  db: Kysely<Database>,
  workspaceId: string,
): SelectQueryBuilder<Database, 'event_types', Pick<EventTypeRow, 'id' | 'workspace_id' | 'active'>> {
  return db.selectFrom('event_types').select(['id', 'workspace_id', 'active']).where('workspace_id', '=', workspaceId);
}
