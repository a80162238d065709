/**
 * list_folders: the workspace's folders in name order, each with how many videos it holds. Reads only.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../../core/lists/pagination.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { listFolders as queryFolders } from '../folders.queries.ts';
import { Folder } from '../folders.schemas.ts';

export const listFolders = defineOperation({
  name: 'list_folders',
  summary: 'List folders',
  description:
    'Lists the workspace’s folders in name order (A→Z, case-insensitive), each with video_count (videos filed in ' +
    'it, archived ones left out) and archived_video_count. Use a folder_id with list_videos to see its videos, or ' +
    'with update_video to file a video in it.',
  method: 'GET',
  path: '/folders',
  group: 'Folders',
  scope: 'videos:read',
  write: false,
  errors: [],
  input: Type.Object({ ...PaginationInput }, { additionalProperties: false }),
  output: ListOutput('folders', Folder),
  example: { limit: 50 },
  async handler(ctx, input) {
    const page = await paginate(ctx.cursors, input, {}, (request) => queryFolders(ctx.db, ctx.workspaceId, request));
    return { folders: page.items, pagination: page.pagination };
  },
});
