/**
 * set_channel_featured: chooses what leads the channel page with a player: a video or a route, or
 * nothing (both null). It shows whether or not it is also in the grid, once it can play: an archived
 * video or a route that is not live is stored and reported as not shown, with the reason. Writes the
 * workspace's channels row; emits no event. Returns get_channel.
 */
import { Type } from 'typebox';
import { AppError, type FieldProblem } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { Nullable } from '../../../core/schemas.ts';
import { findRoute, RouteId } from '../../routes/index.ts';
import { assertVideoInWorkspace, VideoId } from '../../videos/index.ts';
import { ChannelDetail } from '../channel.schemas.ts';
import { channelDetail } from '../channel-detail.ts';
import { lockChannel, updateChannelRow } from '../channel-writes.queries.ts';

/** What is wrong with the pair, if anything: exactly one id, or both null (or left out) to clear, given explicitly. */
function choiceProblems(input: { video_id?: string | null; route_id?: string | null }): FieldProblem[] {
  if (input.video_id === undefined && input.route_id === undefined) {
    return [{ field: '', problem: 'give video_id or route_id, or video_id: null to show no featured item' }];
  }
  if (input.video_id && input.route_id) {
    const problem = 'give video_id or route_id, not both: the channel features one item';
    return [
      { field: 'video_id', problem },
      { field: 'route_id', problem },
    ];
  }
  return [];
}

export const setChannelFeatured = defineOperation({
  name: 'set_channel_featured',
  summary: 'Choose what leads the channel page',
  description:
    'Features one video (video_id) or one interactive route (route_id) at the top of the public channel page, with its ' +
    'player; null clears it. Giving both is refused. The featured item shows even when it is not in the grid; an archived ' +
    'video or a route that is not live is kept but reported as not shown, with the reason. Returns get_channel.',
  method: 'PUT',
  path: '/channel/featured',
  group: 'Channel',
  scope: 'channel:write',
  write: true,
  errors: ['not_found'],
  input: Type.Object(
    {
      video_id: Type.Optional(Nullable(VideoId)),
      route_id: Type.Optional(Nullable(RouteId)),
    },
    { additionalProperties: false },
  ),
  output: ChannelDetail,
  example: { video_id: '3f2b6c1e-8a4d-4e5f-9b7a-1c2d3e4f5a6b' },
  async handler(ctx, input) {
    const problems = choiceProblems(input);
    if (problems.length > 0) throw AppError.invalid(problems);
    const videoId = input.video_id?.toLowerCase() ?? null;
    const routeId = input.route_id?.toLowerCase() ?? null;
    if (videoId) await assertVideoInWorkspace(ctx.db, ctx.workspaceId, videoId);
    if (routeId) await findRoute(ctx.db, ctx.workspaceId, routeId);
    await lockChannel(ctx.db, ctx.workspaceId, ctx.now);
    await updateChannelRow(ctx.db, ctx.workspaceId, { featured_video_id: videoId, featured_route_id: routeId }, ctx.now);
    return channelDetail(ctx.db, ctx.workspaceId, ctx.links, ctx.now);
  },
});
