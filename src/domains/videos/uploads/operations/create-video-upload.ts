/**
 * create_video_upload: creates a video in `waiting_upload` and a one-time, expiring, signed URL to
 * PUT the file to. Writes the video and its upload row and records `video.created`. The upload target
 * (src/transports/public/uploads/upload-target.ts) receives the bytes and queues processing.
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { PLANS } from '../../../../core/plans.ts';
import { describedPattern, Id, ResourceId, Timestamp } from '../../../../core/schemas.ts';
import { emitVideoCreated } from '../../video-change-events.ts';
import { assertFolderInWorkspace, assertVideoQuota, getVideoDetail, insertNewVideo } from '../../videos.queries.ts';
import { TagList, VideoDetail, VideoTitle } from '../../videos.schemas.ts';

const UPLOAD_LIFETIME_MS = 60 * 60 * 1000;

export const createVideoUpload = defineOperation({
  name: 'create_video_upload',
  summary: 'Create a video and get a URL to upload its file to',
  description:
    'Creates a video waiting for its file and returns a one-time upload URL, valid for one hour. Send the file ' +
    'as the raw body of a PUT to upload_url with the returned headers; its size must be exactly file_size. Once ' +
    'received, the video is processed in the background and becomes ready (or failed, with the reason). Use ' +
    'import_video instead when the file is already at a public link.',
  method: 'POST',
  path: '/videos/uploads',
  group: 'Videos',
  scope: 'videos:write',
  write: true,
  status: 201,
  errors: ['not_found', 'plan_limit'],
  input: Type.Object(
    {
      file_name: Type.String({
        minLength: 1,
        maxLength: 255,
        ...describedPattern('^[^/\\\\]*[^/\\\\\\s][^/\\\\]*$', 'must be a bare file name: not blank, and without / or \\ (no folders)'),
        description: 'The file’s name, without a path.',
      }),
      file_size: Type.Integer({ minimum: 1, description: 'Exact size of the file in bytes.' }),
      title: Type.Optional(VideoTitle('Defaults to the file name without its extension.')),
      folder_id: Type.Optional(ResourceId('folder', 'Folder to file the video in.')),
      tags: Type.Optional(TagList),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      video_id: Id('The new video.'),
      upload_url: Type.String({ description: 'PUT the file here, once. It expires at expires_at.' }),
      upload_method: Type.Literal('PUT'),
      upload_headers: Type.Record(Type.String(), Type.String(), { description: 'Headers to send with the PUT.' }),
      expires_at: Timestamp('When the upload URL stops working.'),
      video: VideoDetail,
    },
    { additionalProperties: false },
  ),
  example: { file_name: 'product-tour.mp4', file_size: 48_213_557, title: 'Product tour', tags: ['tour'] },
  async handler(ctx, input) {
    if (input.file_size > ctx.limits.maxUploadBytes) {
      throw AppError.invalid([{ field: 'file_size', problem: `must be at most ${ctx.limits.maxUploadBytes} bytes` }]);
    }
    if (input.folder_id) await assertFolderInWorkspace(ctx.db, ctx.workspaceId, input.folder_id);
    await assertVideoQuota(ctx.db, ctx.workspaceId, PLANS[ctx.principal.plan].videosMax);
    const id = await insertNewVideo(
      ctx.db,
      ctx.workspaceId,
      {
        status: 'waiting_upload',
        fileName: input.file_name.trim(),
        fileSize: input.file_size,
        sourceUrl: null,
        title: input.title,
        folderId: input.folder_id,
        tags: input.tags,
      },
      ctx.now,
    );
    const expiresAt = new Date(ctx.now.getTime() + UPLOAD_LIFETIME_MS);
    await ctx.db
      .insertInto('video_uploads')
      .values({
        video_id: id,
        workspace_id: ctx.workspaceId,
        file_size: input.file_size,
        state: 'open',
        expires_at: expiresAt,
        created_at: ctx.now,
      })
      .execute();
    const video = await getVideoDetail(ctx.db, ctx.workspaceId, id, ctx.links);
    await emitVideoCreated(ctx.emit, video);
    return {
      video_id: id,
      upload_url: ctx.links.uploadUrl(id, expiresAt),
      upload_method: 'PUT' as const,
      upload_headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(input.file_size) },
      expires_at: expiresAt.toISOString(),
      video,
    };
  },
});
