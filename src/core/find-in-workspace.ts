/**
 * The tenancy rule for fetches by id, written once: a row is looked up by its id AND the caller's
 * workspace, and a miss is `not_found` whoever really owns the id, so another workspace's ids
 * reveal nothing (not even that they exist). Queries fetch through here instead of repeating the
 * two conditions and the error by hand.
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../db/tables/index.ts';
import { AppError } from './errors.ts';

/** The tables whose rows belong to one workspace and are fetched by an `id`. */
export type WorkspaceTable = {
  [T in keyof Database]: Database[T] extends { id: string; workspace_id: string } ? T : never;
}[keyof Database];

/** How a not_found names what was missing; every workspace table has a name, so a new one must add it. */
const RESOURCE_NAMES: Record<WorkspaceTable, string> = {
  credentials: 'API key',
  events: 'event',
  folders: 'folder',
  videos: 'video',
  webhook_endpoints: 'webhook endpoint',
  webhook_deliveries: 'webhook delivery',
  viewing_sessions: 'viewing session',
  leads: 'lead',
  lead_activities: 'lead activity',
  outcomes: 'outcome',
  routes: 'route',
  route_steps: 'route step',
  route_choices: 'route choice',
  route_visits: 'route visit',
  event_types: 'event type',
  bookings: 'booking',
  calendar_feeds: 'calendar feed',
  channel_views: 'channel view',
  video_renditions: 'rendition',
  members: 'member',
  invitations: 'invitation',
  audit_events: 'audit event',
  oauth_grants: 'connected assistant',
};

/**
 * The row of `table` with this id in this workspace, shaped by `pick` (its columns, more conditions,
 * `forUpdate()`), or `not_found` naming the resource. `what` overrides the name, for a fetch whose
 * extra conditions narrow it ("webhook delivery of this endpoint").
 */
export async function findInWorkspace<T extends WorkspaceTable, O>(
  db: Kysely<Database>,
  table: T,
  ids: { workspaceId: string; id: string },
  pick: (query: SelectQueryBuilder<Database, T, object>) => SelectQueryBuilder<Database, T, O>,
  what: string = RESOURCE_NAMES[table],
): Promise<O> {
  const query = db
    .selectFrom(table as WorkspaceTable)
    .where(sql.ref(`${table}.workspace_id`), '=', ids.workspaceId)
    .where(sql.ref(`${table}.id`), '=', ids.id) as unknown as SelectQueryBuilder<Database, T, object>;
  const row = await pick(query).executeTakeFirst();
  if (row === undefined) throw AppError.notFound(what, ids.id);
  return row;
}

/**
 * The same rule for a read `findInWorkspace` cannot express (joins over aliased tables): the caller's
 * query filters on the workspace itself, and a miss is `not_found` named as above.
 */
export function foundInWorkspace<R>(row: R | undefined, table: WorkspaceTable, id: string): R {
  if (row === undefined) throw AppError.notFound(RESOURCE_NAMES[table], id);
  return row;
}
