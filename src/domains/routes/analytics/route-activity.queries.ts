/**
 * Route activity as the analytics reads it: per route and period, the visits that started then and how
 * many of them reached an end. A visit belongs to the period it started in, its completion too, so a
 * completion rate never exceeds 1 and a period's numbers do not change once it has passed (save for
 * the visits still under way at its end). One range scan of route_visits_workspace_idx
 * (workspace_id, started_at), sorted into periods with width_bucket as the lead and ledger reads are.
 */
import { type Kysely, sql } from 'kysely';
import { type Boundaries, bucketOf } from '../../../core/calendar/period-buckets.ts';
import type { Database, RouteStatus } from '../../../db/tables/index.ts';

export interface RouteActivity {
  route_id: string;
  name: string;
  status: RouteStatus;
  /** The period, from 1 (between the first two boundaries). */
  bucket: number;
  /** Visits that started in the period (each played the route's entry step). */
  starts: number;
  /** Of those, the ones that reached an end: an `end` choice, the lead form sent, or a last step played out. */
  completions: number;
}

/** Every route of the workspace with a visit started in one of the periods, once per such period. */
export async function routeActivity(db: Kysely<Database>, workspaceId: string, boundaries: Boundaries): Promise<RouteActivity[]> {
  const rows = await db
    .selectFrom('route_visits as v')
    .innerJoin('routes as r', 'r.id', 'v.route_id')
    .where('v.workspace_id', '=', workspaceId)
    .where('r.workspace_id', '=', workspaceId)
    .where('v.started_at', '>=', boundaries[0] as Date)
    .where('v.started_at', '<', boundaries.at(-1) as Date)
    .select([
      'v.route_id',
      'r.name',
      'r.status',
      bucketOf('v.started_at', boundaries).as('bucket'),
      sql<number>`count(*)::int`.as('starts'),
      sql<number>`count(v.completed_at)::int`.as('completions'),
    ])
    .groupBy(['v.route_id', 'r.name', 'r.status', 'bucket'])
    .execute();
  return rows.map((row) => ({ ...row, bucket: Number(row.bucket) }));
}
