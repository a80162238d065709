/**
 * Loading a route and its graph, always within the caller's workspace: the route row (locked for a
 * write, so two writers re-wiring one route take turns) and its steps with their videos' state and
 * current choices (a booking choice's event type with its name and active flag), in the shape route-graph.ts reasons about.
 */
import type { Kysely } from 'kysely';
import { findInWorkspace } from '../../../core/find-in-workspace.ts';
import type { Database, RouteRow } from '../../../db/tables/index.ts';
import { workspaceEventTypes } from '../../scheduling/index.ts';
import { workspaceVideos } from '../../videos/index.ts';
import type { GraphStep, RouteGraph, VideoState } from './route-graph.ts';

/** The route, or not_found. */
export function findRoute(db: Kysely<Database>, workspaceId: string, routeId: string): Promise<RouteRow> {
  return findInWorkspace(db, 'routes', { workspaceId, id: routeId }, (query) => query.selectAll());
}

/** The route, locked until the transaction ends, or not_found. */
export function lockRoute(db: Kysely<Database>, workspaceId: string, routeId: string): Promise<RouteRow> {
  return findInWorkspace(db, 'routes', { workspaceId, id: routeId }, (query) => query.selectAll().forUpdate());
}

/**
 * Of these well-formed step ids, those naming a step of the workspace, of any route: a step id that
 * is none of them is not_found (another workspace's reads the same), one of another route is not a
 * step of the route being wired.
 */
export async function workspaceStepIds(db: Kysely<Database>, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('route_steps')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** The route's steps (in the order they were added) with their videos and current choices. */
export async function loadRouteGraph(db: Kysely<Database>, workspaceId: string, routeId: string): Promise<RouteGraph> {
  const [steps, choices] = await Promise.all([
    db
      .selectFrom('route_steps as s')
      .innerJoin(workspaceVideos(db, workspaceId).as('v'), 'v.id', 's.video_id')
      .where('s.workspace_id', '=', workspaceId)
      .where('s.route_id', '=', routeId)
      .select([
        's.id',
        's.position',
        's.question',
        's.ask_at_seconds',
        'v.id as video_id',
        'v.title',
        'v.status',
        'v.archived',
        'v.duration_seconds',
      ])
      .orderBy('s.position')
      .execute(),
    db
      .selectFrom('route_choices as c')
      // The choice's event type, of the route's workspace (the derived table is narrowed to it).
      .leftJoin(workspaceEventTypes(db, workspaceId).as('e'), 'e.id', 'c.event_type_id')
      .where('c.workspace_id', '=', workspaceId)
      .where('c.route_id', '=', routeId)
      .where('c.retired_at', 'is', null)
      .select([
        'c.id',
        'c.step_id',
        'c.label',
        'c.target',
        'c.to_step_id',
        'c.url',
        'e.id as event_type_id',
        'e.name as event_type_name',
        'e.active',
      ])
      .orderBy('c.step_id')
      .orderBy('c.position')
      .execute(),
  ]);
  const byStep = new Map<string, GraphStep['choices']>();
  for (const choice of choices) {
    const list = byStep.get(choice.step_id) ?? [];
    list.push({
      id: choice.id,
      label: choice.label,
      target: choice.target,
      toStepId: choice.to_step_id,
      url: choice.url,
      eventType:
        choice.event_type_id !== null
          ? { id: choice.event_type_id, name: choice.event_type_name ?? '', active: choice.active === true }
          : null,
    });
    byStep.set(choice.step_id, list);
  }
  return {
    steps: steps.map((step) => ({
      id: step.id,
      position: step.position,
      video: {
        id: step.video_id,
        title: step.title,
        state: (step.archived ? 'archived' : step.status) as VideoState,
        durationSeconds: step.duration_seconds,
      },
      question: step.question,
      askAtSeconds: step.ask_at_seconds,
      choices: byStep.get(step.id) ?? [],
    })),
  };
}
