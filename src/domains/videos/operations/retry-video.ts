/**
 * retry_video: sends a failed video through its import or processing again. Writes the video back to
 * `processing` (failure reason cleared) and queues the job, in one transaction; the worker then
 * records `video.ready` or `video.failed` as the first time. No event of its own.
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { parseOutboundUrl, refuseLiteralHost } from '../../../net/check-url.ts';
import { OutboundRequestError } from '../../../net/outbound-error.ts';
import { requeueFailedVideo } from '../uploads/uploads.queries.ts';
import { getVideoDetail, lockVideo } from '../videos.queries.ts';
import { VideoDetail, VideoId } from '../videos.schemas.ts';

export const retryVideo = defineOperation({
  name: 'retry_video',
  summary: 'Retry a failed import or processing',
  description:
    'Tries a failed video again: an import is downloaded again from its source_url (fix the link’s server first), ' +
    'an upload is processed again from the stored file. The video goes back to processing; poll get_video, or ' +
    'wait for video.ready or video.failed. Only failed videos can be retried (409 otherwise), and an upload whose ' +
    'file is no longer stored cannot be (409: upload it again with create_video_upload).',
  method: 'POST',
  path: '/videos/{video_id}/retry',
  group: 'Videos',
  scope: 'videos:write',
  write: true,
  errors: ['not_found', 'conflict'],
  input: Type.Object({ video_id: VideoId }, { additionalProperties: false }),
  output: VideoDetail,
  example: { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01' },
  async handler(ctx, input) {
    const { workspaceId } = ctx;
    const videoId = input.video_id;
    // Locked, so two retries at once queue one job: the second finds the video processing.
    await lockVideo(ctx.db, workspaceId, videoId);
    const video = await getVideoDetail(ctx.db, workspaceId, videoId, ctx.links);
    if (video.status !== 'failed') {
      throw new AppError(
        'conflict',
        `Only a failed video can be retried; this one is ${video.status}.` +
          (video.status === 'processing' ? ' It is being processed now: poll get_video.' : ''),
        { reason: 'video_not_failed', status: video.status },
      );
    }
    if (video.source_url) {
      assertLinkStillAllowed(video.source_url, ctx.outbound.allowPrivateNetworks);
    } else if ((await ctx.media.stat({ workspaceId, videoId, file: 'source' })) === undefined) {
      throw new AppError(
        'conflict',
        'The uploaded file of this video is no longer stored, so it cannot be processed again. Send the file again ' +
          'with create_video_upload (a new video), and archive this one.',
        { reason: 'source_file_missing' },
      );
    }
    await requeueFailedVideo(ctx.db, { workspaceId, videoId, sourceUrl: video.source_url }, ctx.now);
    return getVideoDetail(ctx.db, workspaceId, videoId, ctx.links);
  },
});

/** The link passes the same up-front check as import_video (the operator's allow-list may have changed). */
function assertLinkStillAllowed(sourceUrl: string, allowPrivateNetworks: Parameters<typeof refuseLiteralHost>[1]): void {
  try {
    refuseLiteralHost(parseOutboundUrl(sourceUrl), allowPrivateNetworks);
  } catch (error) {
    if (!(error instanceof OutboundRequestError)) throw error;
    throw new AppError('conflict', `This video’s link cannot be fetched any more: ${error.message}`, { reason: 'source_url_refused' });
  }
}
