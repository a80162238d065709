/**
 * get_route: one route whole: its steps with their videos, questions and choices, what keeps it from
 * going live, and what viewers did in it (per-step reach, choice shares, drop-off, common paths). Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { RouteDetail, RouteId } from '../../routes.schemas.ts';
import { routeDetail } from '../route-detail.queries.ts';

export const getRoute = defineOperation({
  name: 'get_route',
  summary: 'Get a route: its graph, problems and numbers',
  description:
    'Returns a route’s steps (video, question, choices and targets), the problems keeping it from going live ' +
    '(broken videos, unreachable steps, no way to end), and its numbers: starts, completions, per-step reach and ' +
    'drop-off, each choice’s count and share, the most common paths.',
  method: 'GET',
  path: '/routes/{route_id}',
  group: 'Routes',
  scope: 'routes:read',
  entitlement: 'interactive_routes',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ route_id: RouteId }, { additionalProperties: false }),
  output: RouteDetail,
  example: { route_id: '5d0c1f8e-2b3a-4c7d-9e6f-1a2b3c4d5e6f' },
  handler: (ctx, input) => routeDetail(ctx.db, ctx.workspaceId, input.route_id, ctx.links),
});
