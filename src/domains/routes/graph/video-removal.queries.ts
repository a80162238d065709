/**
 * How a route repairs itself when a video one of its steps plays is deleted (decisions.md, "Deleting a
 * video"). For each route with such steps, under its lock:
 *
 * - the steps that play the video go, with their own choices, their counters and the places visits
 *   reached them (the video is gone; a visit's path keeps its other steps);
 * - a choice of another step that led to one of them is retired (kept, with its label, for the visits
 *   that made it; no longer offered) and made an `end`, since the step it played is gone; a step left
 *   with no current choice loses its question and becomes a last step, so the route ends there;
 * - the most common paths through a removed step are forgotten (they name a step that is not there);
 * - if the entry step went, the earliest step left becomes the entry step;
 * - a live route is paused when it lost its entry step (its viewers would start somewhere new: the
 *   owner should look first) or is left with any problem (a live route stays sound): `/r/{route_id}`
 *   then says the route is paused, and update_route puts it live again once it is sound;
 * - a route whose every step played the video is deleted with it, visits and all: nothing is left to play.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import { loadRouteGraph, lockRoute } from './route-graph.queries.ts';
import { graphProblems } from './route-graph.ts';

/** What happened to a route that played the deleted video. */
export interface RouteRepair {
  routeId: string;
  name: string;
  stepsRemoved: number;
  /** repaired: still there, status unchanged; paused: was live, now paused; deleted: it had no other step. */
  outcome: 'repaired' | 'paused' | 'deleted';
}

/** The workspace's routes with at least one step playing the video, in id order (the order they are locked in). */
async function routesPlaying(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('route_steps')
    .select('route_id')
    .distinct()
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .orderBy('route_id')
    .execute();
  return rows.map((row) => row.route_id);
}

/**
 * The workspace's routes whose every step plays the video: deleting the video deletes them too, so
 * what refers to them (the channel) lets go of them first.
 */
export async function routesOnlyOfVideo(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('route_steps')
    .select('route_id')
    .where('workspace_id', '=', workspaceId)
    .groupBy('route_id')
    .having(sql<boolean>`bool_and(video_id = ${videoId})`)
    .orderBy('route_id')
    .execute();
  return rows.map((row) => row.route_id);
}

/** Repairs (or deletes) every route of the workspace with steps playing the video; answers what happened to each. */
export async function removeVideoFromRoutes(db: Kysely<Database>, workspaceId: string, videoId: string, now: Date): Promise<RouteRepair[]> {
  const repairs: RouteRepair[] = [];
  for (const routeId of await routesPlaying(db, workspaceId, videoId)) {
    repairs.push(await repairRoute(db, workspaceId, routeId, videoId, now));
  }
  return repairs;
}

async function repairRoute(db: Kysely<Database>, workspaceId: string, routeId: string, videoId: string, now: Date): Promise<RouteRepair> {
  const route = await lockRoute(db, workspaceId, routeId);
  const steps = await db
    .selectFrom('route_steps')
    .select(['id', 'position', 'video_id'])
    .where('workspace_id', '=', workspaceId)
    .where('route_id', '=', routeId)
    .orderBy('position')
    .execute();
  const removed = steps.filter((step) => step.video_id === videoId);
  const kept = steps.filter((step) => step.video_id !== videoId);
  const repair = { routeId, name: route.name, stepsRemoved: removed.length };
  if (kept.length === 0) {
    await db.deleteFrom('routes').where('workspace_id', '=', workspaceId).where('id', '=', routeId).execute();
    return { ...repair, outcome: 'deleted' };
  }
  const removedIds = removed.map((step) => step.id);
  await db
    .updateTable('route_choices')
    .set({ retired_at: sql`coalesce(retired_at, ${now})`, target: 'end', to_step_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('route_id', '=', routeId)
    .where('step_id', 'not in', removedIds)
    .where('to_step_id', 'in', removedIds)
    .execute();
  await db
    .deleteFrom('route_path_counts')
    .where('workspace_id', '=', workspaceId)
    .where('route_id', '=', routeId)
    .where(sql<boolean>`step_ids && ${removedIds}::uuid[]`)
    .execute();
  await db.deleteFrom('route_steps').where('workspace_id', '=', workspaceId).where('id', 'in', removedIds).execute();
  // A step whose every choice led to a removed step is now a last step: no question without choices.
  await db
    .updateTable('route_steps')
    .set({ question: null, ask_at_seconds: null })
    .where('workspace_id', '=', workspaceId)
    .where('route_id', '=', routeId)
    .where('question', 'is not', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('route_choices as c').select('c.id').whereRef('c.step_id', '=', 'route_steps.id').where('c.retired_at', 'is', null),
        ),
      ),
    )
    .execute();
  const lostEntry = removed.some((step) => step.position === 0);
  if (lostEntry) {
    const first = kept[0] as (typeof kept)[number];
    await db.updateTable('route_steps').set({ position: 0 }).where('workspace_id', '=', workspaceId).where('id', '=', first.id).execute();
  }
  const unsound = graphProblems(await loadRouteGraph(db, workspaceId, routeId)).length > 0;
  const pause = route.status === 'live' && (lostEntry || unsound);
  await db
    .updateTable('routes')
    .set({ updated_at: now, ...(pause ? { status: 'paused' as const } : {}) })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', routeId)
    .execute();
  return { ...repair, outcome: pause ? 'paused' : 'repaired' };
}
