/**
 * import_video: creates a video in `processing` from a public link and queues its import: a worker
 * downloads the file through the SSRF guard (every hop resolved and checked, private and metadata
 * addresses refused), then probes it like an upload. Records `video.created`. A link whose host is
 * written as a refused IP address is refused at once (400, logged), with nothing written.
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { PLANS } from '../../../../core/plans.ts';
import { ResourceId } from '../../../../core/schemas.ts';
import { enqueueJob } from '../../../../job-queue/queue.ts';
import { parseOutboundUrl, refuseLiteralHost } from '../../../../net/check-url.ts';
import { OutboundRequestError } from '../../../../net/outbound-error.ts';
import { emitVideoCreated } from '../../video-change-events.ts';
import { assertFolderInWorkspace, assertVideoQuota, getVideoDetail, insertNewVideo } from '../../videos.queries.ts';
import { TagList, VideoDetail, VideoTitle } from '../../videos.schemas.ts';
import { VIDEO_IMPORT_ATTEMPTS, VIDEO_IMPORT_JOB } from '../uploads.queries.ts';

export const importVideo = defineOperation({
  name: 'import_video',
  summary: 'Import a video from a public link',
  description:
    'Creates a video from a file at a public http(s) link and processes it in the background: the video starts in ' +
    'processing and becomes ready, or failed with the reason (for example the link answered 404, points to a ' +
    'private address, or is not a video). Poll get_video to follow it. Use create_video_upload to send a file directly.',
  method: 'POST',
  path: '/videos',
  group: 'Videos',
  scope: 'videos:write',
  write: true,
  status: 201,
  errors: ['not_found', 'plan_limit'],
  input: Type.Object(
    {
      source_url: Type.String({ minLength: 8, maxLength: 4096, description: 'A public http or https link to the video file.' }),
      title: Type.Optional(VideoTitle('Defaults to the file name in the link.')),
      folder_id: Type.Optional(ResourceId('folder', 'Folder to file the video in.')),
      tags: Type.Optional(TagList),
    },
    { additionalProperties: false },
  ),
  output: VideoDetail,
  example: { source_url: 'https://media.example.com/webinars/q3-launch.mp4', title: 'Q3 launch webinar', tags: ['webinar'] },
  async handler(ctx, input) {
    let url: URL;
    try {
      url = parseOutboundUrl(input.source_url);
      // A private or loopback address typed into the link fails the same way in the worker a moment
      // later; say so now. Names that resolve there are still caught by the worker's own check.
      refuseLiteralHost(url, ctx.outbound.allowPrivateNetworks);
    } catch (error) {
      if (!(error instanceof OutboundRequestError)) {
        throw AppError.invalid([{ field: 'source_url', problem: 'is not a valid URL' }]);
      }
      if (error.reason === 'blocked_address') {
        ctx.log.warn(
          { workspaceId: ctx.workspaceId, requestId: ctx.requestId, url: error.url, address: error.address },
          'import refused: the link names a non-public address',
        );
      }
      throw AppError.invalid([{ field: 'source_url', problem: error.message.replace(/\.$/, '') }]);
    }
    if (input.folder_id) await assertFolderInWorkspace(ctx.db, ctx.workspaceId, input.folder_id);
    await assertVideoQuota(ctx.db, ctx.workspaceId, PLANS[ctx.principal.plan].videosMax);
    const fileName = fileNameOf(url);
    const id = await insertNewVideo(
      ctx.db,
      ctx.workspaceId,
      {
        status: 'processing',
        fileName,
        fileSize: null,
        sourceUrl: url.href,
        title: input.title,
        folderId: input.folder_id,
        tags: input.tags,
      },
      ctx.now,
    );
    await enqueueJob(
      ctx.db,
      {
        kind: VIDEO_IMPORT_JOB,
        workspaceId: ctx.workspaceId,
        payload: { video_id: id, source_url: url.href },
        maxAttempts: VIDEO_IMPORT_ATTEMPTS,
      },
      ctx.now,
    );
    const video = await getVideoDetail(ctx.db, ctx.workspaceId, id, ctx.links);
    await emitVideoCreated(ctx.emit, video);
    return video;
  },
});

/** The last path segment, decoded when it decodes (a stray `%` in a link is not an error), or the host. */
function fileNameOf(url: URL): string {
  const segment = url.pathname.split('/').pop() ?? '';
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    // Keep the segment as written.
  }
  return name.slice(0, 255) || url.hostname;
}
