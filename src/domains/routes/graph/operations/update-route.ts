/**
 * update_route: renames a route or moves it to another status. Going live needs a graph without
 * problems: otherwise 400 listing each one. Writes the route row (and its updated_at) when something
 * changed; emits no event (no event type exists for route changes).
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { isUuid } from '../../../../core/values/real-instants.ts';
import { RouteDetail, RouteId, RouteName, RouteStatus } from '../../routes.schemas.ts';
import { goingLiveProblems } from '../live-route-checks.ts';
import { routeDetail } from '../route-detail.queries.ts';
import { loadRouteGraph, lockRoute } from '../route-graph.queries.ts';
import { updateRouteRow } from '../route-writes.queries.ts';
import { textField } from '../step-video-checks.ts';

export const updateRoute = defineOperation({
  name: 'update_route',
  summary: 'Rename, publish, pause or archive a route',
  description:
    'Renames a route or sets its status: live (public; refused while get_route lists problems, each named), ' +
    'paused, archived or draft. Any status may follow any other. A live route’s graph must stay sound.',
  method: 'PATCH',
  path: '/routes/{route_id}',
  group: 'Routes',
  scope: 'routes:write',
  entitlement: 'interactive_routes',
  write: true,
  errors: ['not_found'],
  input: Type.Object(
    { route_id: RouteId, name: Type.Optional(RouteName), status: Type.Optional(RouteStatus) },
    { additionalProperties: false },
  ),
  // Going live with an invalid name too: both kinds of problem in one answer.
  async databaseProblems(db, workspaceId, input) {
    const routeId = textField(input, 'route_id');
    if (textField(input, 'status') !== 'live' || !routeId || !isUuid(routeId)) return [];
    return goingLiveProblems(await loadRouteGraph(db, workspaceId, routeId.toLowerCase()));
  },
  output: RouteDetail,
  example: { route_id: '5d0c1f8e-2b3a-4c7d-9e6f-1a2b3c4d5e6f', status: 'live' },
  async handler(ctx, input) {
    const current = await lockRoute(ctx.db, ctx.workspaceId, input.route_id);
    const changes: { name?: string; status?: typeof current.status } = {};
    const name = input.name?.trim();
    if (name !== undefined && name !== current.name) changes.name = name;
    if (input.status !== undefined && input.status !== current.status) changes.status = input.status;
    // Checked whenever live is asked for, even of a live route: the answer says whether it is sound.
    if (input.status === 'live') {
      const problems = goingLiveProblems(await loadRouteGraph(ctx.db, ctx.workspaceId, input.route_id));
      if (problems.length > 0) throw AppError.invalid(problems);
    }
    if (Object.keys(changes).length > 0) await updateRouteRow(ctx.db, ctx.workspaceId, input.route_id, changes, ctx.now);
    return routeDetail(ctx.db, ctx.workspaceId, input.route_id, ctx.links);
  },
});
