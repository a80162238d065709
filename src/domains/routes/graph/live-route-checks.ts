/**
 * A live route is being played: it must stay sound. Going live needs a graph without problems, and
 * a write to a route that is live may not give it a problem it did not have (a loop with no way
 * out, a step nothing leads to), or viewers would meet it; such a write is refused, naming each new
 * problem, and nothing of it is kept. Problems the route already had (a video archived since it
 * went live) do not block other edits: get_route keeps reporting them.
 */
import type { Kysely } from 'kysely';
import { AppError, type FieldProblem } from '../../../core/errors.ts';
import type { Database } from '../../../db/tables/index.ts';
import { loadRouteGraph } from './route-graph.queries.ts';
import { type GraphProblem, graphProblems, type RouteGraph } from './route-graph.ts';

/** Why the route cannot go live, as problems of update_route's `status`; none when it can. */
export function goingLiveProblems(graph: RouteGraph): FieldProblem[] {
  if (graph.steps.length === 0) return [];
  return graphProblems(graph).map((problem) => ({ field: 'status', problem: `cannot be live: ${problem.message}` }));
}

/**
 * Throws invalid_request, as problems of `field`, if the route's graph now has problems it did not
 * have `before` (the problems of the graph read before the write, in the same transaction).
 */
export async function keepLiveRouteSound(
  db: Kysely<Database>,
  route: { workspaceId: string; routeId: string },
  before: readonly GraphProblem[],
  field: string,
): Promise<void> {
  const had = new Set(before.map(keyOf));
  const added = graphProblems(await loadRouteGraph(db, route.workspaceId, route.routeId)).filter((problem) => !had.has(keyOf(problem)));
  if (added.length === 0) return;
  throw AppError.invalid(
    added.map((problem) => ({
      field,
      problem: `would give the live route a problem viewers would meet: ${problem.message}; pause the route to rework it, or wire it so it stays sound`,
    })),
  );
}

const keyOf = (problem: GraphProblem) => `${problem.code}:${problem.stepId}`;
