/**
 * What viewers did in routes, read from the visits (route_visits) and the path of each one
 * (route_visit_steps): starts and completions, and per step how many visits reached it, ended the
 * route there, or dropped off there, how many made each choice, and the most common paths.
 *
 * A visit exists once its entry step played, so every visit is a start. A visit counts once per step
 * and once per choice however often a loop brought it back. It dropped off at its last step when it
 * neither reached an end nor followed a link.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { ROUTE_LIMITS } from './routes.schemas.ts';

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
    .selectFrom('route_visits')
    .where('workspace_id', '=', workspaceId)
    .where('route_id', 'in', routeIds)
    .groupBy('route_id')
    .select(['route_id', sql<number>`count(*)::int`.as('starts'), sql<number>`count(completed_at)::int`.as('completions')])
    .execute();
  for (const row of rows) totals.set(row.route_id, { starts: row.starts, completions: row.completions });
  return totals;
}

export async function routeStats(db: Kysely<Database>, workspaceId: string, routeId: string): Promise<RouteStats> {
  const [totals, steps, choices, paths] = await Promise.all([
    routeTotals(db, workspaceId, [routeId]),
    sql<{ step_id: string; reached: number; finished: number; dropped_off: number }>`
      select vs.step_id,
        count(distinct vs.visit_id)::int as reached,
        count(distinct vs.visit_id) filter (where last.is_last and v.ended_by = 'last_step')::int as finished,
        count(distinct vs.visit_id) filter (where last.is_last and v.ended_by is null)::int as dropped_off
      from route_visit_steps vs
      join route_visits v on v.id = vs.visit_id
      cross join lateral (select vs.position = v.steps_reached - 1 as is_last) last
      where vs.workspace_id = ${workspaceId} and vs.route_id = ${routeId}
      group by vs.step_id`.execute(db),
    sql<{ choice_id: string; chosen: number }>`
      select choice_id, count(distinct visit_id)::int as chosen
      from route_visit_steps
      where workspace_id = ${workspaceId} and route_id = ${routeId} and choice_id is not null
      group by choice_id`.execute(db),
    sql<{ step_ids: string[]; choices: string[]; visits: number; completed: number }>`
      select step_ids, choices, count(*)::int as visits, count(completed_at)::int as completed
      from (
        select v.id, v.completed_at,
          array_agg(vs.step_id::text order by vs.position) as step_ids,
          array_remove(array_agg(vs.choice_label order by vs.position), null) as choices
        from route_visits v
        join route_visit_steps vs on vs.visit_id = v.id
        where v.workspace_id = ${workspaceId} and v.route_id = ${routeId}
        group by v.id, v.completed_at
      ) per_visit
      group by step_ids, choices
      order by visits desc, completed desc, step_ids
      limit ${ROUTE_LIMITS.paths}`.execute(db),
  ]);
  const total = totals.get(routeId) ?? { starts: 0, completions: 0 };
  return {
    ...total,
    steps: new Map(steps.rows.map((row) => [row.step_id, { reached: row.reached, finished: row.finished, droppedOff: row.dropped_off }])),
    choices: new Map(choices.rows.map((row) => [row.choice_id, row.chosen])),
    paths: paths.rows.map((row) => ({ stepIds: row.step_ids, choices: row.choices, visits: row.visits, completed: row.completed })),
  };
}
