/**
 * add_route_step: adds a step playing the video named by id or exact title, after the route's last
 * step and without choices (unreachable until a choice leads to it). Writes the step and the route's
 * updated_at; emits no event.
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { Id } from '../../../../core/schemas.ts';
import { ROUTE_LIMITS, RouteDetail, RouteId, VideoReference } from '../../routes.schemas.ts';
import { routeDetail } from '../route-detail.queries.ts';
import { lockRoute } from '../route-graph.queries.ts';
import { insertStep } from '../route-writes.queries.ts';
import { checkStepVideo, textField } from '../step-video-checks.ts';

const LIVE_ROUTE_STEP =
  'cannot be added to a live route on its own: nothing would lead to it; add and wire it in one call with ' +
  'add_route_branches and to_video, or pause the route first';

export const addRouteStep = defineOperation({
  name: 'add_route_step',
  summary: 'Add a video step to a route',
  description:
    `Adds a step playing video; step_id in the answer names it. Wire a choice to it with add_route_branches ` +
    `(until then it is unreachable, so a live route takes new steps through to_video). At most ${ROUTE_LIMITS.steps} steps.`,
  method: 'POST',
  path: '/routes/{route_id}/steps',
  group: 'Routes',
  scope: 'routes:write',
  entitlement: 'interactive_routes',
  write: true,
  errors: ['not_found'],
  input: Type.Object({ route_id: RouteId, video: VideoReference('The step’s video.') }, { additionalProperties: false }),
  databaseProblems: async (db, workspaceId, input) =>
    (await checkStepVideo(db, workspaceId, input, 'video', textField(input, 'route_id'))).problems,
  output: Type.Object({ step_id: Id('The step just added.'), ...RouteDetail.properties }, { additionalProperties: false }),
  example: { route_id: '5d0c1f8e-2b3a-4c7d-9e6f-1a2b3c4d5e6f', video: 'Pricing explained' },
  async handler(ctx, input) {
    const route = await lockRoute(ctx.db, ctx.workspaceId, input.route_id);
    const { problems, video } = await checkStepVideo(ctx.db, ctx.workspaceId, input, 'video', input.route_id);
    // Viewers are playing a live route: a step nothing leads to would be its problem (live-route-checks.ts).
    if (route.status === 'live') problems.push({ field: 'video', problem: LIVE_ROUTE_STEP });
    if (problems.length > 0 || !video) throw AppError.refusing(problems);
    const stepId = await insertStep(ctx.db, { workspaceId: ctx.workspaceId, routeId: input.route_id, videoId: video.id, now: ctx.now });
    return { step_id: stepId, ...(await routeDetail(ctx.db, ctx.workspaceId, input.route_id, ctx.links)) };
  },
});
