/**
 * list_videos: the library, newest first by default, with status and view counts. Reads only. A
 * folder_id that is not a folder of the workspace is not_found, not an empty list.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
import { ResourceId, StringEnum, Tag } from '../../../core/schemas.ts';
import { assertFolderExists } from '../folders/folders.queries.ts';
import { ARCHIVED_FILTERS, listVideos as queryVideos, VIDEO_SORTS } from '../videos.queries.ts';
import { VIDEO_STATUSES, VideoSummary } from '../videos.schemas.ts';

export const listVideos = defineOperation({
  name: 'list_videos',
  summary: 'List videos',
  description:
    'Lists the video library with each video’s status, tags, folder and view count. Filter by status, folder, ' +
    'tags (all must match) or a search over title, description and tags; sort by newest, oldest, most_viewed or ' +
    'title. Archived videos are left out unless archived=include or archived=only. Use this to find a video_id.',
  method: 'GET',
  path: '/videos',
  group: 'Videos',
  scope: 'videos:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object(
    {
      status: Type.Optional(StringEnum(VIDEO_STATUSES, { description: 'Only videos in this processing state.' })),
      folder_id: Type.Optional(ResourceId('folder', 'Only videos in this folder.')),
      tags: Type.Optional(
        Type.Array(Tag, { maxItems: 20, description: 'Only videos carrying every one of these tags (comma-separated in a query string).' }),
      ),
      search: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Text to find in the title, description or tags (case-insensitive).' }),
      ),
      archived: Type.Optional(
        StringEnum(ARCHIVED_FILTERS, {
          default: 'exclude',
          description: 'Whether archived videos are left out (exclude), listed too (include) or listed alone (only).',
        }),
      ),
      sort: Type.Optional(StringEnum(VIDEO_SORTS, { default: 'newest', description: 'Order of the list.' })),
      ...PaginationInput,
    },
    { additionalProperties: false },
  ),
  output: ListOutput('videos', VideoSummary),
  example: { status: 'ready', tags: ['onboarding'], sort: 'most_viewed', limit: 20 },
  async handler(ctx, input) {
    const { limit, cursor, ...rest } = input;
    const filters = { ...rest, archived: rest.archived ?? 'exclude', sort: rest.sort ?? 'newest' };
    if (filters.folder_id) await assertFolderExists(ctx.db, ctx.workspaceId, filters.folder_id);
    const page = await paginate(ctx.cursors, input, filters, (request) =>
      queryVideos(ctx.db, ctx.workspaceId, filters, request, ctx.links),
    );
    return { videos: page.items, pagination: page.pagination };
  },
});
