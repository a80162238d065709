/**
 * The writes that build a route, each scoped to a workspace and run in the caller's transaction
 * (the route operations, and the demo seed): a new route with its entry step, a step added at the
 * next position, and a step's question and choices wired or re-wired. Every change to a route's
 * graph, name or status moves its updated_at. Callers lock the route first (lockRoute), so two
 * writers of one route take turns over positions and choices.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import type { ChoiceTarget, Database, RouteStatus } from '../../../db/tables/index.ts';
import { ROUTE_LIMITS } from '../routes.schemas.ts';

/** One choice of a step as wired: a label and its one target. */
export type WiredChoice = { label: string } & (
  | { target: 'step'; toStepId: string }
  | { target: 'url'; url: string }
  /** The booking page of this event type. */
  | { target: 'booking'; eventTypeId: string }
  | { target: 'lead_form' | 'end' }
  /** A new step for this video, which the choice plays. */
  | { target: 'new_step'; videoId: string }
);

export async function insertRoute(
  db: Kysely<Database>,
  route: { workspaceId: string; name: string; entryVideoId: string; status?: RouteStatus; now: Date },
): Promise<{ routeId: string; entryStepId: string }> {
  const routeId = randomUUID();
  await db
    .insertInto('routes')
    .values({
      id: routeId,
      workspace_id: route.workspaceId,
      name: route.name,
      status: route.status ?? 'draft',
      created_at: route.now,
      updated_at: route.now,
    })
    .execute();
  const entryStepId = await insertStep(db, { workspaceId: route.workspaceId, routeId, videoId: route.entryVideoId, now: route.now });
  return { routeId, entryStepId };
}

/**
 * Adds a step for the video after the route's last one, without choices. A route already at the
 * step limit is refused, as a problem of `field` (the input field that asked for the step).
 */
export async function insertStep(
  db: Kysely<Database>,
  step: { workspaceId: string; routeId: string; videoId: string; now: Date; field?: string },
): Promise<string> {
  const { next } = await db
    .selectFrom('route_steps')
    .where('workspace_id', '=', step.workspaceId)
    .where('route_id', '=', step.routeId)
    .select(sql<number>`coalesce(max(position) + 1, 0)::int`.as('next'))
    .executeTakeFirstOrThrow();
  if (next >= ROUTE_LIMITS.steps) {
    throw AppError.invalid([{ field: step.field ?? 'video', problem: stepLimitProblem(next, 1) }]);
  }
  const id = randomUUID();
  await db
    .insertInto('route_steps')
    .values({
      id,
      workspace_id: step.workspaceId,
      route_id: step.routeId,
      video_id: step.videoId,
      position: next,
      question: null,
      ask_at_seconds: null,
      created_at: step.now,
    })
    .execute();
  await touchRoute(db, step.workspaceId, step.routeId, step.now);
  return id;
}

/** Why adding `adding` steps to a route of `current` steps is refused. */
export function stepLimitProblem(current: number, adding: number): string {
  const what = adding === 1 ? 'a step' : `${adding} steps`;
  return `would add ${what} to a route of ${current}; a route has at most ${ROUTE_LIMITS.steps} steps`;
}

/**
 * Replaces a step's question, ask_at_seconds and choices, in order. A choice whose label matches a
 * current one (trimmed, any case) keeps that choice's id, so its numbers carry on; current choices not
 * kept are retired (kept for the visits that made them, no longer offered). Choices to a new step add
 * the step first; choices naming the same video share one new step.
 */
export async function wireStep(
  db: Kysely<Database>,
  wiring: {
    workspaceId: string;
    routeId: string;
    stepId: string;
    question: string | null;
    askAtSeconds: number | null;
    choices: readonly WiredChoice[];
    now: Date;
  },
): Promise<void> {
  const { workspaceId, routeId, stepId, now } = wiring;
  const newSteps = new Map<string, string>();
  for (const choice of wiring.choices) {
    if (choice.target !== 'new_step' || newSteps.has(choice.videoId)) continue;
    newSteps.set(choice.videoId, await insertStep(db, { workspaceId, routeId, videoId: choice.videoId, now, field: 'branches' }));
  }
  const current = await db
    .selectFrom('route_choices')
    .where('workspace_id', '=', workspaceId)
    .where('step_id', '=', stepId)
    .where('retired_at', 'is', null)
    .select(['id', 'label'])
    .execute();
  const byLabel = new Map(current.map((choice) => [labelKey(choice.label), choice.id]));
  const kept = new Set<string>();
  for (const [position, choice] of wiring.choices.entries()) {
    const label = choice.label.trim();
    const target: ChoiceTarget = choice.target === 'new_step' ? 'step' : choice.target;
    const fields = {
      position,
      label,
      target,
      to_step_id:
        choice.target === 'step' ? choice.toStepId : choice.target === 'new_step' ? (newSteps.get(choice.videoId) as string) : null,
      url: choice.target === 'url' ? choice.url : null,
      event_type_id: choice.target === 'booking' ? choice.eventTypeId : null,
    };
    const keep = byLabel.get(labelKey(label));
    if (keep && !kept.has(keep)) {
      kept.add(keep);
      await db.updateTable('route_choices').set(fields).where('workspace_id', '=', workspaceId).where('id', '=', keep).execute();
    } else {
      await db
        .insertInto('route_choices')
        .values({ id: randomUUID(), workspace_id: workspaceId, route_id: routeId, step_id: stepId, retired_at: null, ...fields })
        .execute();
    }
  }
  const retired = current.map((choice) => choice.id).filter((id) => !kept.has(id));
  if (retired.length > 0) {
    await db
      .updateTable('route_choices')
      .set({ retired_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', retired)
      .execute();
  }
  await db
    .updateTable('route_steps')
    .set({ question: wiring.question, ask_at_seconds: wiring.askAtSeconds })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', stepId)
    .execute();
  await touchRoute(db, workspaceId, routeId, now);
}

/**
 * How labels compare: trimmed, any case, and in one Unicode form ("Yes" and " yes " are one choice,
 * and so are an "é" typed as one character and as "e" plus an accent: they look the same).
 */
export function labelKey(label: string): string {
  return label.trim().normalize('NFC').toLowerCase();
}

/** Renames the route or moves it to another status (only the fields given). */
export async function updateRouteRow(
  db: Kysely<Database>,
  workspaceId: string,
  routeId: string,
  changes: { name?: string; status?: RouteStatus },
  now: Date,
): Promise<void> {
  await db
    .updateTable('routes')
    .set({ ...changes, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', routeId)
    .execute();
}

function touchRoute(db: Kysely<Database>, workspaceId: string, routeId: string, now: Date) {
  return updateRouteRow(db, workspaceId, routeId, {}, now);
}

/** How many steps the route has (0 for a route that is not the workspace's). */
export async function countSteps(db: Kysely<Database>, workspaceId: string, routeId: string): Promise<number> {
  const { steps } = await db
    .selectFrom('route_steps')
    .where('workspace_id', '=', workspaceId)
    .where('route_id', '=', routeId)
    .select(sql<number>`count(*)::int`.as('steps'))
    .executeTakeFirstOrThrow();
  return steps;
}
