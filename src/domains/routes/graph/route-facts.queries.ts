/**
 * The workspace's routes as other areas show them (the channel's cards and its activity): a route's
 * name and status, how many steps it has, and its entry step's video as far as showing the route
 * goes. Always within one workspace.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import { workspaceVideos } from '../../videos/index.ts';

/** The workspace's routes' ids and names, to join as a derived table (`.as('r')`) in another area's statement. */
export function routeNames(db: Kysely<Database>, workspaceId: string) {
  return db.selectFrom('routes').select(['routes.id', 'routes.name']).where('routes.workspace_id', '=', workspaceId);
}

/**
 * Those of these routes the workspace has, each with its name, status, step count and entry step's
 * video (null columns when it has none); one query for any number of them.
 */
export async function routeCardFacts(db: Kysely<Database>, workspaceId: string, routeIds: readonly string[]) {
  if (routeIds.length === 0) return [];
  return db
    .selectFrom('routes as r')
    .leftJoin('route_steps as entry', (join) => join.onRef('entry.route_id', '=', 'r.id').on('entry.position', '=', 0))
    .leftJoin(workspaceVideos(db, workspaceId).as('v'), 'v.id', 'entry.video_id')
    .select((eb) => [
      'r.id',
      'r.name',
      'r.status',
      'r.created_at',
      'v.id as entry_video_id',
      'v.status as entry_status',
      'v.archived as entry_archived',
      'v.has_poster as entry_has_poster',
      eb.selectFrom('route_steps as s').whereRef('s.route_id', '=', 'r.id').select(eb.fn.countAll<number>().as('n')).as('steps'),
    ])
    .where('r.workspace_id', '=', workspaceId)
    .where(sql<boolean>`r.id = any(${[...routeIds]}::uuid[])`)
    .execute();
}
