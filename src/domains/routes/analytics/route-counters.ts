/**
 * The route numbers get_route and list_routes read (migration 0017), moved as each visit goes on, in
 * the transaction that records it, so a read costs the same at ten visits or a million. The
 * recording reads the visit's tally before its writes and after them; the difference is what moves:
 *
 * - a new visit is a start; its first completion a completion;
 * - a step the visit reaches for the first time is reached once more (a loop counts once);
 * - a choice the visit makes for the first time is chosen once more;
 * - `finished` follows the visit's last step while it ended there as a last step, `dropped_off`
 *   while it has not ended;
 * - the visit leaves its old path (steps and labels chosen so far) for its new one.
 *
 * rebuildRouteCounters counts a route again from its visits' rows, for data written around the
 * recording (the benchmark's bulk seed).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, VisitEnding } from '../../../db/tables/index.ts';

/** What the counters see of one visit. */
export interface VisitTally {
  /** The steps reached, in order, with the choice made at each (and its label as chosen). */
  path: { stepId: string; choiceId: string | null; label: string | null }[];
  endedBy: VisitEnding | null;
  completed: boolean;
}

export interface RouteScope {
  workspaceId: string;
  routeId: string;
}

/** The visit's tally now, or null when there is no such visit. */
export async function readVisitTally(db: Kysely<Database>, visitId: string): Promise<VisitTally | null> {
  const [visit, steps] = await Promise.all([
    db.selectFrom('route_visits').select(['ended_by', 'completed_at']).where('id', '=', visitId).executeTakeFirst(),
    db
      .selectFrom('route_visit_steps')
      .select(['step_id', 'choice_id', 'choice_label'])
      .where('visit_id', '=', visitId)
      .orderBy('position')
      .execute(),
  ]);
  if (!visit) return null;
  return {
    path: steps.map((step) => ({ stepId: step.step_id, choiceId: step.choice_id, label: step.choice_label })),
    endedBy: visit.ended_by,
    completed: visit.completed_at !== null,
  };
}

/** How two visits' paths are told apart: the steps in order, and the labels chosen. */
export function pathKey(tally: VisitTally): string {
  const labels = tally.path.flatMap((step) => (step.label === null ? [] : [step.label]));
  return `${tally.path.map((step) => step.stepId).join(',')}|${labels.join('\u001f')}`;
}

const lastStep = (tally: VisitTally | null) => tally?.path.at(-1)?.stepId ?? null;
const finishedAt = (tally: VisitTally | null) => (tally?.endedBy === 'last_step' ? lastStep(tally) : null);
const droppedAt = (tally: VisitTally | null) => (tally && tally.endedBy === null ? lastStep(tally) : null);

type StepField = 'reached' | 'finished' | 'dropped_off';

/** Moves the counters from the visit's tally `before` its writes (null: it did not exist) to `after`. */
export async function moveRouteCounters(
  trx: Transaction<Database>,
  route: RouteScope,
  before: VisitTally | null,
  after: VisitTally,
): Promise<void> {
  const steps = new Map<string, Record<StepField, number>>();
  const bump = (stepId: string | null, field: StepField, by: number) => {
    if (stepId === null) return;
    const counts = steps.get(stepId) ?? { reached: 0, finished: 0, dropped_off: 0 };
    counts[field] += by;
    steps.set(stepId, counts);
  };
  const reachedBefore = new Set(before?.path.map((step) => step.stepId));
  for (const stepId of new Set(after.path.map((step) => step.stepId))) if (!reachedBefore.has(stepId)) bump(stepId, 'reached', 1);
  for (const [field, at] of [
    ['finished', finishedAt],
    ['dropped_off', droppedAt],
  ] as const) {
    if (at(before) === at(after)) continue;
    bump(at(before), field, -1);
    bump(at(after), field, 1);
  }
  const chosenBefore = new Set(before?.path.map((step) => step.choiceId));
  const chosen = [...new Set(after.path.flatMap((step) => (step.choiceId ? [step.choiceId] : [])))].filter((id) => !chosenBefore.has(id));

  const { workspaceId, routeId } = route;
  for (const [stepId, counts] of steps) {
    await trx
      .insertInto('route_step_counts')
      .values({ step_id: stepId, workspace_id: workspaceId, route_id: routeId, ...counts })
      .onConflict((conflict) =>
        conflict.column('step_id').doUpdateSet({
          reached: sql`route_step_counts.reached + excluded.reached`,
          finished: sql`route_step_counts.finished + excluded.finished`,
          dropped_off: sql`route_step_counts.dropped_off + excluded.dropped_off`,
        }),
      )
      .execute();
  }
  if (chosen.length > 0) {
    await trx
      .insertInto('route_choice_counts')
      .values(chosen.map((choiceId) => ({ choice_id: choiceId, workspace_id: workspaceId, route_id: routeId, chosen: 1 })))
      .onConflict((conflict) => conflict.column('choice_id').doUpdateSet({ chosen: sql`route_choice_counts.chosen + 1` }))
      .execute();
  }
  await movePath(trx, route, before, after);
  const starts = before === null ? 1 : 0;
  const completions = after.completed && !before?.completed ? 1 : 0;
  if (starts + completions > 0) {
    await trx
      .updateTable('routes')
      .set({ starts: sql`starts + ${starts}`, completions: sql`completions + ${completions}` })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', routeId)
      .execute();
  }
}

async function movePath(trx: Transaction<Database>, route: RouteScope, before: VisitTally | null, after: VisitTally): Promise<void> {
  const was = before && before.path.length > 0 ? pathKey(before) : null;
  const now = pathKey(after);
  if (was === now && before?.completed === after.completed) return;
  if (was !== null && before) {
    await trx
      .updateTable('route_path_counts')
      .set({ visits: sql`visits - 1`, completed: sql`completed - ${before.completed ? 1 : 0}` })
      .where('route_id', '=', route.routeId)
      .where('path_key', '=', was)
      .execute();
  }
  await trx
    .insertInto('route_path_counts')
    .values({
      route_id: route.routeId,
      path_key: now,
      workspace_id: route.workspaceId,
      step_ids: after.path.map((step) => step.stepId),
      choices: after.path.flatMap((step) => (step.label === null ? [] : [step.label])),
      visits: 1,
      completed: after.completed ? 1 : 0,
    })
    .onConflict((conflict) =>
      conflict.columns(['route_id', 'path_key']).doUpdateSet({
        visits: sql`route_path_counts.visits + 1`,
        completed: sql`route_path_counts.completed + excluded.completed`,
      }),
    )
    .execute();
}

/** Counts the route again from its visits' rows, replacing its counters. */
export async function rebuildRouteCounters(db: Kysely<Database>, route: RouteScope): Promise<void> {
  const { workspaceId, routeId } = route;
  await db.transaction().execute(async (trx) => {
    for (const table of ['route_step_counts', 'route_choice_counts', 'route_path_counts'] as const) {
      await trx.deleteFrom(table).where('workspace_id', '=', workspaceId).where('route_id', '=', routeId).execute();
    }
    await sql`update routes set
        starts = (select count(*)::int from route_visits where route_id = ${routeId}),
        completions = (select count(completed_at)::int from route_visits where route_id = ${routeId})
      where workspace_id = ${workspaceId} and id = ${routeId}`.execute(trx);
    await sql`insert into route_step_counts (step_id, workspace_id, route_id, reached, finished, dropped_off)
      select vs.step_id, ${workspaceId}, ${routeId},
        count(distinct vs.visit_id)::int,
        count(distinct vs.visit_id) filter (where vs.position = v.steps_reached - 1 and v.ended_by = 'last_step')::int,
        count(distinct vs.visit_id) filter (where vs.position = v.steps_reached - 1 and v.ended_by is null)::int
      from route_visit_steps vs join route_visits v on v.id = vs.visit_id
      where vs.route_id = ${routeId}
      group by vs.step_id`.execute(trx);
    await sql`insert into route_choice_counts (choice_id, workspace_id, route_id, chosen)
      select choice_id, ${workspaceId}, ${routeId}, count(distinct visit_id)::int
      from route_visit_steps where route_id = ${routeId} and choice_id is not null group by choice_id`.execute(trx);
    await sql`insert into route_path_counts (route_id, path_key, workspace_id, step_ids, choices, visits, completed)
      select ${routeId}, path_key, ${workspaceId}, min(step_ids::text)::uuid[], min(choices::text)::text[], count(*)::int, count(completed_at)::int
      from (
        select v.completed_at,
          array_agg(vs.step_id order by vs.position) as step_ids,
          array_remove(array_agg(vs.choice_label order by vs.position), null) as choices,
          array_to_string(array_agg(vs.step_id::text order by vs.position), ',') || '|' ||
            array_to_string(array_agg(vs.choice_label order by vs.position), chr(31)) as path_key
        from route_visits v join route_visit_steps vs on vs.visit_id = v.id
        where v.route_id = ${routeId}
        group by v.id
      ) per_visit
      group by path_key`.execute(trx);
  });
}
