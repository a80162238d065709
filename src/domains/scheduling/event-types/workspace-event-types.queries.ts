/**
 * The workspace's event types as other areas read them: a route's booking choices name one by id,
 * and show its name and whether it is active (an inactive one offers no slots). Always within one
 * workspace.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

/** The workspace's event types' ids, names and active flags, to join as a derived table (`.as('e')`) in another area's statement. */
export function workspaceEventTypes(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom('event_types')
    .select(['event_types.id', 'event_types.name', 'event_types.active'])
    .where('event_types.workspace_id', '=', workspaceId);
}

/** Those of these ids that are event types of the workspace, with their names and active flags. */
export async function eventTypesWithIds(db: Kysely<Database>, workspaceId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return workspaceEventTypes(db, workspaceId)
    .where('event_types.id', 'in', [...ids])
    .execute();
}
