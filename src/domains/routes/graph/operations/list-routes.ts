/**
 * list_routes: the workspace's routes, newest first, filtered by a video they play and by status
 * (archived ones only when asked for), each with its step count, starts and completions. Reads only.
 * A video_id that is not a video of the workspace is not_found, not an empty list.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../../core/lists/pagination.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { ResourceId } from '../../../../core/schemas.ts';
import { assertVideoInWorkspace } from '../../../videos/index.ts';
import { RouteStatus, RouteSummary } from '../../routes.schemas.ts';
import { routeSummaries } from '../route-detail.queries.ts';
import { listRouteRows } from '../route-list.queries.ts';

export const listRoutes = defineOperation({
  name: 'list_routes',
  summary: 'List interactive routes',
  description:
    'Lists routes newest first with status, entry video, step count, starts and completions. video_id: routes with ' +
    'a step playing it. Archived routes are left out unless status=archived.',
  method: 'GET',
  path: '/routes',
  group: 'Routes',
  scope: 'routes:read',
  entitlement: 'interactive_routes',
  write: false,
  errors: ['not_found'],
  input: Type.Object(
    {
      video_id: Type.Optional(ResourceId('video', 'Only routes with a step playing this video.')),
      status: Type.Optional(RouteStatus),
      ...PaginationInput,
    },
    { additionalProperties: false },
  ),
  output: ListOutput('routes', RouteSummary),
  example: { status: 'live', limit: 20 },
  async handler(ctx, input) {
    const { limit: _limit, cursor: _cursor, ...filters } = input;
    if (filters.video_id) await assertVideoInWorkspace(ctx.db, ctx.workspaceId, filters.video_id);
    const page = await paginate(ctx.cursors, input, filters, (request) =>
      listRouteRows(ctx.db, ctx.workspaceId, { videoId: filters.video_id, status: filters.status }, request),
    );
    return { routes: await routeSummaries(ctx.db, ctx.workspaceId, page.items, ctx.links), pagination: page.pagination };
  },
});
