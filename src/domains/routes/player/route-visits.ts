/**
 * Recording what a route player's viewer did (POST /r/{route_id}/events and /lead), each call in
 * one transaction with the visit row locked:
 * - the first step event creates the visit (route_visits: a start), each step reached adds a row
 *   to its path (route_visit_steps, keyed by visit and index, so a re-sent event changes nothing),
 *   each choice is written on its step's row, and the visit keeps steps_reached, last_at, how it
 *   ended and, once known, the lead its browser is linked to (the most recently linked);
 * - a choice by a browser linked to leads adds ENGAGEMENT_POINTS.routeChoice to each;
 * - a completion (an `end` choice, a last step played out, the lead form sent) sets completed_at
 *   and records `route.completed`, once per visit, with the path and the lead;
 * - completeWithLead captures the lead like the watch page's form (captureLeadIn, the step's video)
 *   and completes the visit with that lead.
 */

import { type Kysely, sql, type Transaction } from 'kysely';
import { AppError, type FieldProblem } from '../../../core/errors.ts';
import { transactionRetryingConflicts } from '../../../db/conflict-retry.ts';
import { outboxEmitter } from '../../../db/outbox.ts';
import type { Database, VisitEnding } from '../../../db/tables/index.ts';
import {
  type CapturedFields,
  captureLeadIn,
  creditLeadsOfViewer,
  ENGAGEMENT_POINTS,
  LEAD_FORM_FIELDS,
  type LeadForm,
  latestLeadOfViewer,
} from '../../leads/index.ts';
import { workspaceVideos } from '../../videos/index.ts';
import { moveRouteCounters, readVisitTally, type VisitTally } from '../analytics/route-counters.ts';
import { loadRouteGraph } from '../graph/route-graph.queries.ts';
import { type KnownChoice, type PathStep, planVisitEvents, type RouteEvent } from './route-visit-plan.ts';

/**
 * The form a route's lead_form choice shows: the email, and whichever of the other fields the
 * viewer gives (the player asks a first name besides; POST /r/{route_id}/lead takes all three).
 */
export const ROUTE_LEAD_FORM: LeadForm = {
  placement: 'end',
  skippable: false,
  at_second: null,
  fields: [...LEAD_FORM_FIELDS],
  headline: 'Leave your email and we will be in touch',
  button_text: 'Send',
};

interface VisitKey {
  workspaceId: string;
  routeId: string;
  visitId: string;
  viewerId: string;
  now: Date;
}

export interface RouteEventsRequest extends VisitKey {
  events: RouteEvent[];
}

export interface RouteLeadRequest extends VisitKey {
  index: number;
  stepId: string;
  fields: CapturedFields;
}

interface LockedVisit {
  viewer_id: string;
  lead_id: string | null;
  ended_by: VisitEnding | null;
  completed_at: Date | null;
}

/** Records the events, or throws invalid_request naming each one that does not fit (writing nothing). */
export function recordRouteEvents(db: Kysely<Database>, request: RouteEventsRequest): Promise<void> {
  return transactionRetryingConflicts(db, async (trx) => {
    const starts = request.events.some((event) => event.type === 'step' && event.index === 0);
    // The tally before this call's writes, read under the visit's lock (null: this call made the visit).
    let visit = await lockVisit(trx, request);
    let before = visit ? await readVisitTally(trx, request.visitId) : null;
    if (!visit && starts) {
      const started = await startVisit(trx, request);
      visit = started.visit;
      if (!started.made) before = await readVisitTally(trx, request.visitId);
    }
    const [graph, choices, path] = await Promise.all([
      loadRouteGraph(trx, request.workspaceId, request.routeId),
      knownChoices(trx, request),
      visit ? visitPath(trx, request.visitId) : Promise.resolve([]),
    ]);
    const plan = planVisitEvents(graph, choices, { path, endedBy: visit?.ended_by ?? null }, request.events);
    if (plan.problems.length > 0) throw AppError.invalid(plan.problems);
    if (!visit || (plan.reached.length === 0 && plan.chosen.length === 0 && !plan.ending)) return;

    const { workspaceId, routeId, visitId, now } = request;
    if (plan.reached.length > 0) {
      await trx
        .insertInto('route_visit_steps')
        .values(
          plan.reached.map(({ index, stepId }) => ({
            visit_id: visitId,
            position: index,
            workspace_id: workspaceId,
            route_id: routeId,
            step_id: stepId,
            reached_at: now,
          })),
        )
        .execute();
    }
    for (const { index, choice } of plan.chosen) {
      await trx
        .updateTable('route_visit_steps')
        .set({ choice_id: choice.id, choice_label: choice.label, chosen_at: now })
        .where('visit_id', '=', visitId)
        .where('position', '=', index)
        .execute();
      await creditLeadsOfViewer(trx, { workspaceId, viewerId: visit.viewer_id, points: ENGAGEMENT_POINTS.routeChoice, at: now });
    }
    await updateVisit(trx, request, visit, { ending: plan.ending, leadId: null });
    await moveCounters(trx, request, before);
  });
}

/** Moves the route's numbers by what this call changed of the visit (route-counters.ts). */
async function moveCounters(trx: Transaction<Database>, key: VisitKey, before: VisitTally | null): Promise<void> {
  const after = await readVisitTally(trx, key.visitId);
  if (after) await moveRouteCounters(trx, { workspaceId: key.workspaceId, routeId: key.routeId }, before, after);
}

/** Captures the lead from the route's form and completes the visit with it. */
export function completeWithLead(db: Kysely<Database>, request: RouteLeadRequest): Promise<void> {
  return transactionRetryingConflicts(db, async (trx) => {
    const visit = await lockVisit(trx, request);
    const before = visit ? await readVisitTally(trx, request.visitId) : null;
    const problems: FieldProblem[] = [];
    const at = visit ? (await visitPath(trx, request.visitId))[request.index] : undefined;
    const chose = at?.choiceId ? (await knownChoices(trx, request)).get(at.choiceId) : undefined;
    if (!visit || !at) problems.push({ field: 'index', problem: `the visit has not reached index ${request.index}` });
    else if (at.stepId !== request.stepId)
      problems.push({ field: 'step_id', problem: `the visit is at another step at index ${request.index}` });
    else if (chose?.target !== 'lead_form')
      problems.push({ field: 'index', problem: `the lead form was not chosen at index ${request.index}` });
    if (!visit || problems.length > 0) throw AppError.invalid(problems);

    const step = await trx
      .selectFrom('route_steps')
      .select('video_id')
      .where('workspace_id', '=', request.workspaceId)
      .where('id', '=', request.stepId)
      .executeTakeFirstOrThrow();
    const captured = await captureLeadIn(trx, {
      videoId: step.video_id,
      viewerId: request.viewerId,
      fields: request.fields,
      at: request.now,
      route: { routeId: request.routeId, visitId: request.visitId },
      form: ROUTE_LEAD_FORM,
    });
    await updateVisit(trx, request, visit, { ending: 'lead_form', leadId: captured.leadId });
    await moveCounters(trx, request, before);
  });
}

function lockVisit(trx: Transaction<Database>, key: VisitKey): Promise<LockedVisit | undefined> {
  return trx
    .selectFrom('route_visits')
    .select(['viewer_id', 'lead_id', 'ended_by', 'completed_at'])
    .where('workspace_id', '=', key.workspaceId)
    .where('route_id', '=', key.routeId)
    .where('id', '=', key.visitId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The visit row, made by its first step event; two first batches at once make one, and the second
 * waits on its lock. `made`: this call inserted it (so it is this call's start to count).
 */
async function startVisit(trx: Transaction<Database>, key: VisitKey): Promise<{ visit: LockedVisit | undefined; made: boolean }> {
  const inserted = await trx
    .insertInto('route_visits')
    .values({
      id: key.visitId,
      workspace_id: key.workspaceId,
      route_id: key.routeId,
      viewer_id: key.viewerId,
      lead_id: await latestLeadOfViewer(trx, key.workspaceId, key.viewerId),
      started_at: key.now,
      last_at: key.now,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return { visit: await lockVisit(trx, key), made: inserted !== undefined };
}

/** Every choice of the route, retired ones too: a visit's path may hold one re-wiring dropped since. */
async function knownChoices(trx: Transaction<Database>, key: VisitKey): Promise<Map<string, KnownChoice>> {
  const rows = await trx
    .selectFrom('route_choices')
    .select(['id', 'label', 'target', 'to_step_id'])
    .where('workspace_id', '=', key.workspaceId)
    .where('route_id', '=', key.routeId)
    .execute();
  return new Map(rows.map((row) => [row.id, { id: row.id, label: row.label, target: row.target, toStepId: row.to_step_id }]));
}

async function visitPath(trx: Transaction<Database>, visitId: string): Promise<PathStep[]> {
  const rows = await trx
    .selectFrom('route_visit_steps')
    .select(['step_id', 'choice_id'])
    .where('visit_id', '=', visitId)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ stepId: row.step_id, choiceId: row.choice_id }));
}

/**
 * Moves the visit on: steps reached, last activity, how it ended (the first ending stands), the lead
 * (the one captured, else the browser's once it has one); a first completion records route.completed.
 */
async function updateVisit(
  trx: Transaction<Database>,
  key: VisitKey,
  visit: LockedVisit,
  change: { ending: VisitEnding | null; leadId: string | null },
): Promise<void> {
  const completes = change.ending !== null && change.ending !== 'url' && visit.completed_at === null;
  const leadId = change.leadId ?? visit.lead_id ?? (await latestLeadOfViewer(trx, key.workspaceId, visit.viewer_id));
  await trx
    .updateTable('route_visits')
    .set({
      steps_reached: sql<number>`(select count(*)::int from route_visit_steps where visit_id = ${key.visitId})`,
      last_at: key.now,
      lead_id: leadId,
      ended_by: visit.ended_by ?? change.ending,
      ...(completes ? { completed_at: key.now } : {}),
    })
    .where('id', '=', key.visitId)
    .execute();
  if (completes) await recordCompletion(trx, key, leadId);
}

async function recordCompletion(trx: Transaction<Database>, key: VisitKey, leadId: string | null): Promise<void> {
  const [route, path] = await Promise.all([
    trx
      .selectFrom('routes')
      .select(['id', 'name'])
      .where('workspace_id', '=', key.workspaceId)
      .where('id', '=', key.routeId)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('route_visit_steps as vs')
      .innerJoin('route_steps as s', 's.id', 'vs.step_id')
      .innerJoin(workspaceVideos(trx, key.workspaceId).as('v'), 'v.id', 's.video_id')
      .select(['v.id as video_id', 'v.title', 'vs.choice_label'])
      .where('vs.visit_id', '=', key.visitId)
      .orderBy('vs.position')
      .execute(),
  ]);
  const emit = outboxEmitter(trx, key.workspaceId, key.now);
  await emit('route.completed', {
    route_id: route.id,
    route: { route_id: route.id, name: route.name },
    lead_id: leadId,
    path: path.map((step) => ({ video_id: step.video_id, title: step.title, choice: step.choice_label })),
  });
}
