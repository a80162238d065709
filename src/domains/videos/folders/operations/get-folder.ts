/**
 * get_folder: one folder with how many videos it holds. Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { getFolder as queryFolder } from '../folders.queries.ts';
import { Folder, FolderId } from '../folders.schemas.ts';

export const getFolder = defineOperation({
  name: 'get_folder',
  summary: 'Get a folder',
  description:
    'Returns one folder: its name, video_count (videos filed in it, archived ones left out), archived_video_count ' +
    'and when it was created and last renamed.',
  method: 'GET',
  path: '/folders/{folder_id}',
  group: 'Folders',
  scope: 'videos:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ folder_id: FolderId }, { additionalProperties: false }),
  output: Folder,
  example: { folder_id: 'd66d9655-f6fb-4fe9-b85f-3ec9d1734c11' },
  async handler(ctx, input) {
    return queryFolder(ctx.db, ctx.workspaceId, input.folder_id);
  },
});
