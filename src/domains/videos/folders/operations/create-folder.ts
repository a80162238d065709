/**
 * create_folder: adds an empty folder to the workspace. Writes one folder row; no event (the event
 * list has none for folders).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { getFolder, insertFolder } from '../folders.queries.ts';
import { Folder, FolderName } from '../folders.schemas.ts';

export const createFolder = defineOperation({
  name: 'create_folder',
  summary: 'Create a folder',
  description:
    'Creates an empty folder to file videos in (with update_video’s folder_id, or folder_id when importing or ' +
    'uploading). Names are unique in the workspace whatever their case: a name in use answers 409 with the ' +
    'folder that has it.',
  method: 'POST',
  path: '/folders',
  group: 'Folders',
  scope: 'videos:write',
  write: true,
  status: 201,
  errors: ['conflict'],
  input: Type.Object({ name: FolderName }, { additionalProperties: false }),
  output: Folder,
  example: { name: 'Customer stories' },
  async handler(ctx, input) {
    const id = await insertFolder(ctx.db, ctx.workspaceId, input.name.trim(), ctx.now);
    return getFolder(ctx.db, ctx.workspaceId, id);
  },
});
