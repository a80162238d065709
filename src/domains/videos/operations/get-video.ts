/**
 * get_video: one video in full — metadata, processing state, media facts and lifetime stats (every
 * stat present, zero before anyone watches). Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { getVideoDetail } from '../videos.queries.ts';
import { VideoDetail, VideoId } from '../videos.schemas.ts';

export const getVideo = defineOperation({
  name: 'get_video',
  summary: 'Get a video with its stats',
  description:
    'Returns one video in full: title, description, tags, folder, processing status (and why it failed, if it did), ' +
    'duration, dimensions, file size, and lifetime stats (views, unique viewers, watch time, engagement, ' +
    'completions, conversions, leads).',
  method: 'GET',
  path: '/videos/{video_id}',
  group: 'Videos',
  scope: 'videos:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ video_id: VideoId }, { additionalProperties: false }),
  output: VideoDetail,
  example: { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01' },
  async handler(ctx, input) {
    return getVideoDetail(ctx.db, ctx.workspaceId, input.video_id, ctx.links);
  },
});
