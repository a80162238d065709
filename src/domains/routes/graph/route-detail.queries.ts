/**
 * A route as every answer shows it: get_route and the writes (create_route, add_route_step,
 * add_route_branches, update_route) answer the whole route, graph, problems and numbers together, and
 * list_routes the summary of each.
 */
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { shareOf } from '../../../core/values/reported-numbers.ts';
import type { Database, RouteRow } from '../../../db/tables/index.ts';
import type { MediaLinks } from '../../../media/media-links.ts';
import { workspaceVideos } from '../../videos/index.ts';
import { type RouteTotals, routeStats, routeTotals } from '../analytics/route-stats.queries.ts';
import type { RouteDetail, RouteSummary } from '../routes.schemas.ts';
import { findRoute, loadRouteGraph } from './route-graph.queries.ts';
import { entryStep, graphProblems, type RouteGraph } from './route-graph.ts';

function summaryOf(
  route: RouteRow,
  entry: { video_id: string; title: string },
  stepCount: number,
  totals: RouteTotals,
  links: Pick<MediaLinks, 'routeUrl'>,
): Static<typeof RouteSummary> {
  return {
    route_id: route.id,
    name: route.name,
    status: route.status,
    url: links.routeUrl(route.id),
    entry_video: entry,
    step_count: stepCount,
    starts: totals.starts,
    completions: totals.completions,
    completion_rate: shareOf(totals.completions, totals.starts),
    created_at: route.created_at.toISOString(),
    updated_at: route.updated_at.toISOString(),
  };
}

/** The whole route: graph, problems, per-step and per-choice numbers, and the most common paths. */
export async function routeDetail(
  db: Kysely<Database>,
  workspaceId: string,
  routeId: string,
  links: Pick<MediaLinks, 'routeUrl' | 'bookingPageUrl'>,
): Promise<Static<typeof RouteDetail>> {
  const [route, graph, stats] = await Promise.all([
    findRoute(db, workspaceId, routeId),
    loadRouteGraph(db, workspaceId, routeId),
    routeStats(db, workspaceId, routeId),
  ]);
  const entry = entryStep(graph);
  return {
    ...summaryOf(route, { video_id: entry.video.id, title: entry.video.title }, graph.steps.length, stats, links),
    entry_step_id: entry.id,
    steps: graph.steps.map((step) => {
      const numbers = stats.steps.get(step.id) ?? { reached: 0, finished: 0, droppedOff: 0 };
      return {
        step_id: step.id,
        entry: step.position === 0,
        video: { video_id: step.video.id, title: step.video.title, available: step.video.state === 'ready' },
        question: step.question,
        ask_at_second: step.askAtSeconds,
        choices: step.choices.map((choice) => {
          const chosen = stats.choices.get(choice.id) ?? 0;
          return {
            choice_id: choice.id,
            label: choice.label,
            target: choice.target,
            to_step_id: choice.toStepId,
            url: choice.url,
            event_type_id: choice.eventType?.id ?? null,
            booking_url: choice.eventType ? links.bookingPageUrl(choice.eventType.id) : null,
            chosen,
            share: shareOf(chosen, numbers.reached),
          };
        }),
        reached: numbers.reached,
        finished: numbers.finished,
        dropped_off: numbers.droppedOff,
      };
    }),
    problems: problemsOf(graph),
    paths: stats.paths.map((path) => ({ step_ids: path.stepIds, choices: path.choices, visits: path.visits, completed: path.completed })),
  };
}

function problemsOf(graph: RouteGraph): Static<typeof RouteDetail>['problems'] {
  return graphProblems(graph).map((problem) => ({ code: problem.code, step_id: problem.stepId, message: problem.message }));
}

/** The list item of each route row, in the order given. */
export async function routeSummaries(
  db: Kysely<Database>,
  workspaceId: string,
  routes: readonly RouteRow[],
  links: Pick<MediaLinks, 'routeUrl'>,
): Promise<Static<typeof RouteSummary>[]> {
  if (routes.length === 0) return [];
  const ids = routes.map((route) => route.id);
  const [totals, steps] = await Promise.all([
    routeTotals(db, workspaceId, ids),
    db
      .selectFrom('route_steps as s')
      .innerJoin(workspaceVideos(db, workspaceId).as('v'), 'v.id', 's.video_id')
      .where('s.workspace_id', '=', workspaceId)
      .where('s.route_id', 'in', ids)
      .groupBy('s.route_id')
      .select((eb) => [
        's.route_id',
        eb.fn.countAll<number>().as('step_count'),
        // The entry step is position 0; its video and title.
        eb.fn.max(eb.case().when('s.position', '=', 0).then(eb.cast('v.id', 'text')).end()).as('entry_video_id'),
        eb.fn.max(eb.case().when('s.position', '=', 0).then(eb.ref('v.title')).end()).as('entry_title'),
      ])
      .execute(),
  ]);
  const byRoute = new Map(steps.map((row) => [row.route_id, row]));
  return routes.map((route) => {
    const step = byRoute.get(route.id);
    return summaryOf(
      route,
      { video_id: String(step?.entry_video_id), title: String(step?.entry_title) },
      Number(step?.step_count ?? 0),
      totals.get(route.id) ?? { starts: 0, completions: 0 },
      links,
    );
  });
}
