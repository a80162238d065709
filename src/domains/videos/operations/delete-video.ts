/**
 * delete_video (dashboard only, owners and admins): deletes the video's channel items, route steps
 * (routes repaired, paused or deleted), transcript, viewing and analytics rows, queued jobs, renditions,
 * upload and row in one transaction; queues the removal of its files; emits `video.deleted`.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { Timestamp } from '../../../core/schemas.ts';
import { removeFromChannel } from '../../channel/index.ts';
import { RouteId, removeVideoFromRoutes, routesOnlyOfVideo } from '../../routes/index.ts';
import { deleteVideoTranscripts } from '../../transcripts/index.ts';
import { deleteVideoViewing } from '../../viewing/index.ts';
import { deleteVideoRow, lockVideoForDeletion } from '../video-deletion.queries.ts';
import { VideoId } from '../videos.schemas.ts';

const RouteChange = Type.Object(
  {
    route_id: RouteId,
    name: Type.String(),
    steps_removed: Type.Integer({ minimum: 1, description: 'Steps that played the video, now gone.' }),
    outcome: Type.Union([Type.Literal('repaired'), Type.Literal('paused'), Type.Literal('deleted')], {
      description:
        'repaired: the steps went and the choices that led to them were retired; paused: the same, and the route, live until ' +
        'now, was paused (it lost its entry step, or has a problem to fix before it plays again); deleted: every step played the video.',
    }),
  },
  { additionalProperties: false },
);

export const deleteVideo = defineOperation({
  name: 'delete_video',
  summary: 'Delete a video and everything of it',
  description:
    'Deletes a video for good: its files in the media store (original, poster, renditions), transcript and captions, ' +
    'search entries, channel items, viewing and analytics rows, and the route steps that played it (routes are ' +
    'repaired, paused or deleted; routes says which). Lead and revenue history stays, without the video. Signed-in ' +
    'owners and admins only, from the dashboard; the API and assistants archive instead (update_video archived=true).',
  method: 'DELETE',
  path: '/videos/{video_id}',
  group: 'Videos',
  scope: 'workspace:manage',
  write: true,
  destructive: true,
  dashboardOnly: true,
  errors: ['not_found'],
  input: Type.Object({ video_id: VideoId }, { additionalProperties: false }),
  output: Type.Object(
    {
      video_id: VideoId,
      title: Type.String({ description: 'The title the video had.' }),
      deleted: Type.Literal(true),
      routes: Type.Array(RouteChange, { description: 'The routes that played the video, and what became of each.' }),
      channel_items_removed: Type.Integer({
        minimum: 0,
        description: 'Items taken off the channel: the video, and routes deleted with it.',
      }),
      deleted_at: Timestamp('When the video was deleted. Its files leave the media store shortly after.'),
    },
    { additionalProperties: false },
  ),
  example: { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01' },
  async handler(ctx, input) {
    const { workspaceId, now } = ctx;
    const videoId = input.video_id;
    const { title } = await lockVideoForDeletion(ctx.db, workspaceId, videoId);
    // The channel first: it refers to the video, and to the routes deleted with it.
    const emptiedRoutes = await routesOnlyOfVideo(ctx.db, workspaceId, videoId);
    const channelItems = await removeFromChannel(ctx.db, workspaceId, { videoIds: [videoId], routeIds: emptiedRoutes }, now);
    const routes = await removeVideoFromRoutes(ctx.db, workspaceId, videoId, now);
    await deleteVideoTranscripts(ctx.db, workspaceId, videoId);
    await deleteVideoViewing(ctx.db, workspaceId, videoId);
    // Leads, ledger entries and bookings that name the video keep their history without it (their
    // references are set to null by the database); the row goes last, its files after the commit.
    await deleteVideoRow(ctx.db, workspaceId, videoId, now);
    await ctx.emit('video.deleted', { video_id: videoId, title });
    return {
      video_id: videoId,
      title,
      deleted: true as const,
      routes: routes.map((route) => ({
        route_id: route.routeId,
        name: route.name,
        steps_removed: route.stepsRemoved,
        outcome: route.outcome,
      })),
      channel_items_removed: channelItems,
      deleted_at: now.toISOString(),
    };
  },
});
