/**
 * What viewers did in routes, read from the counters the recording of visits keeps
 * (route-counters.ts, migration 0017): starts and completions, and per step how many visits
 * reached it, ended the route there, or dropped off there, how many made each choice, and the most
 * common paths. Each read is a handful of rows, whatever the route's history: counting the visits
 * themselves took 2 s at 100,000 visits (bench/route-reads.ts).
 *
 * A visit exists once its entry step played, so every visit is a start. A visit counts once per step
 * and once per choice however often a loop brought it back. It dropped off at its last step when it
 * neither reached an end nor followed a link.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import { ROUTE_LIMITS } from '../routes.schemas.ts';

export interface RouteTotals {
  starts: number;
  completions: number;
}

export interface StepNumbers {
  reached: number;
  finished: number;
  droppedOff: number;
}

export interface RoutePath {
  stepIds: string[];
  choices: string[];
  visits: number;
  completed: number;
}

export interface RouteStats extends RouteTotals {
  steps: Map<string, StepNumbers>;
  /** Visits that made each choice, by choice id (retired choices included). */
  choices: Map<string, number>;
  paths: RoutePath[];
}

/** Starts and completions of each route named (0 and 0 for a route without visits). */
export async function routeTotals(
  db: Kysely<Database>,
  workspaceId: string,
  routeIds: readonly string[],
): Promise<Map<string, RouteTotals>> {
  const totals = new Map<string, RouteTotals>(routeIds.map((id) => [id, { starts: 0, completions: 0 }]));
  if (routeIds.length === 0) return totals;
  const rows = await db
    .selectFrom('routes')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', routeIds)
    .select(['id', 'starts', 'completions'])
    .execute();
  for (const row of rows) totals.set(row.id, { starts: row.starts, completions: row.completions });
  return totals;
}

export async function routeStats(db: Kysely<Database>, workspaceId: string, routeId: string): Promise<RouteStats> {
  const [totals, steps, choices, paths] = await Promise.all([
    routeTotals(db, workspaceId, [routeId]),
    db
      .selectFrom('route_step_counts')
      .where('workspace_id', '=', workspaceId)
      .where('route_id', '=', routeId)
      .select(['step_id', 'reached', 'finished', 'dropped_off'])
      .execute(),
    db
      .selectFrom('route_choice_counts')
      .where('workspace_id', '=', workspaceId)
      .where('route_id', '=', routeId)
      .select(['choice_id', 'chosen'])
      .execute(),
    db
      .selectFrom('route_path_counts')
      .where('workspace_id', '=', workspaceId)
      .where('route_id', '=', routeId)
      .where('visits', '>', 0)
      .select(['step_ids', 'choices', 'visits', 'completed'])
      .orderBy('visits', 'desc')
      .orderBy('completed', 'desc')
      .orderBy('path_key')
      .limit(ROUTE_LIMITS.paths)
      .execute(),
  ]);
  const total = totals.get(routeId) ?? { starts: 0, completions: 0 };
  return {
    ...total,
    steps: new Map(steps.map((row) => [row.step_id, { reached: row.reached, finished: row.finished, droppedOff: row.dropped_off }])),
    choices: new Map(choices.map((row) => [row.choice_id, row.chosen])),
    paths: paths.map((row) => ({ stepIds: row.step_ids, choices: row.choices, visits: row.visits, completed: row.completed })),
  };
}
