/**
 * create_route: a new draft route whose entry step plays the video named by id or exact title.
 * Writes the route and its entry step; emits no event (no event type exists for route changes).
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { RouteDetail, RouteName, VideoReference } from '../../routes.schemas.ts';
import { routeDetail } from '../route-detail.queries.ts';
import { insertRoute } from '../route-writes.queries.ts';
import { checkStepVideo } from '../step-video-checks.ts';

export const createRoute = defineOperation({
  name: 'create_route',
  summary: 'Start a route from its entry video',
  description:
    'Creates a draft route whose first (entry) step plays entry_video. An ambiguous title is refused naming the ' +
    'candidates. Then add_route_step and add_route_branches build it; update_route puts it live.',
  method: 'POST',
  path: '/routes',
  group: 'Routes',
  scope: 'routes:write',
  entitlement: 'interactive_routes',
  write: true,
  status: 201,
  errors: ['not_found'],
  input: Type.Object(
    {
      entry_video: VideoReference('The video every visit starts with.'),
      name: Type.Optional({ ...RouteName, description: 'Default: the entry video’s title.' }),
    },
    { additionalProperties: false },
  ),
  databaseProblems: async (db, workspaceId, input) => (await checkStepVideo(db, workspaceId, input, 'entry_video')).problems,
  output: RouteDetail,
  example: { entry_video: 'Which plan fits you?', name: 'Plan finder' },
  async handler(ctx, input) {
    const { problems, video } = await checkStepVideo(ctx.db, ctx.workspaceId, input, 'entry_video');
    if (problems.length > 0 || !video) throw AppError.refusing(problems);
    const { routeId } = await insertRoute(ctx.db, {
      workspaceId: ctx.workspaceId,
      name: input.name?.trim() ?? video.title,
      entryVideoId: video.id,
      now: ctx.now,
    });
    return routeDetail(ctx.db, ctx.workspaceId, routeId, ctx.links);
  },
});
