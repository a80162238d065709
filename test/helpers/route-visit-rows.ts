/**
 * Route choices and visits written straight into their tables, as the route player's recording leaves
 * them, for tests of what is read from them (analytics, lead journeys) without playing a route.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChoiceTarget, Database, VisitEnding } from '../../src/db/tables/index.ts';

export interface ChoiceRow {
  workspaceId: string;
  routeId: string;
  stepId: string;
  position?: number;
  label: string;
  target: ChoiceTarget;
  toStepId?: string;
  url?: string;
  retiredAt?: Date;
}

/** One choice of a step; its id. */
export async function addRouteChoice(db: Kysely<Database>, choice: ChoiceRow): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('route_choices')
    .values({
      id,
      workspace_id: choice.workspaceId,
      route_id: choice.routeId,
      step_id: choice.stepId,
      position: choice.position ?? 0,
      label: choice.label,
      target: choice.target,
      to_step_id: choice.toStepId ?? null,
      url: choice.url ?? null,
      retired_at: choice.retiredAt ?? null,
    })
    .execute();
  return id;
}

export interface VisitStep {
  stepId: string;
  /** When the visit reached the step; the visit's start for the first. */
  at?: Date;
  choice?: { id: string; label: string; at: Date };
}

export interface VisitRow {
  workspaceId: string;
  routeId: string;
  viewerId: string;
  startedAt: Date;
  /** How it ended; null (the default): still under way, or dropped off. Every ending but `url` is a completion. */
  endedBy?: VisitEnding | null;
  steps?: VisitStep[];
}

/** Visits of routes, each with its path (route_visit_steps) when given; their ids, in order. */
export async function addRouteVisits(db: Kysely<Database>, visits: readonly VisitRow[]): Promise<string[]> {
  if (visits.length === 0) return [];
  const ids = visits.map(() => randomUUID());
  const lastAt = (visit: VisitRow) =>
    new Date(
      Math.max(visit.startedAt.getTime(), ...(visit.steps ?? []).map((step) => (step.choice?.at ?? step.at ?? visit.startedAt).getTime())),
    );
  await db
    .insertInto('route_visits')
    .values(
      visits.map((visit, i) => ({
        id: ids[i] as string,
        workspace_id: visit.workspaceId,
        route_id: visit.routeId,
        viewer_id: visit.viewerId,
        lead_id: null,
        started_at: visit.startedAt,
        last_at: lastAt(visit),
        steps_reached: visit.steps?.length ?? 1,
        ended_by: visit.endedBy ?? null,
        completed_at: visit.endedBy && visit.endedBy !== 'url' ? lastAt(visit) : null,
      })),
    )
    .execute();
  const steps = visits.flatMap((visit, i) =>
    (visit.steps ?? []).map((step, position) => ({
      visit_id: ids[i] as string,
      position,
      workspace_id: visit.workspaceId,
      route_id: visit.routeId,
      step_id: step.stepId,
      reached_at: step.at ?? visit.startedAt,
      choice_id: step.choice?.id ?? null,
      choice_label: step.choice?.label ?? null,
      chosen_at: step.choice?.at ?? null,
    })),
  );
  if (steps.length > 0) await db.insertInto('route_visit_steps').values(steps).execute();
  return ids;
}
