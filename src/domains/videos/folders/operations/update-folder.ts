/**
 * update_folder: renames a folder. Writes the folder row; its videos stay filed in it. No event (the
 * event list has none for folders).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { getFolder, lockFolder, renameFolder } from '../folders.queries.ts';
import { Folder, FolderId, FolderName } from '../folders.schemas.ts';

export const updateFolder = defineOperation({
  name: 'update_folder',
  summary: 'Rename a folder',
  description:
    'Renames a folder; its videos stay in it and show the new folder_name. Names are unique in the workspace ' +
    'whatever their case (409 when another folder has it); changing only the case of a folder’s own name is allowed.',
  method: 'PATCH',
  path: '/folders/{folder_id}',
  group: 'Folders',
  scope: 'videos:write',
  write: true,
  errors: ['not_found', 'conflict'],
  input: Type.Object({ folder_id: FolderId, name: FolderName }, { additionalProperties: false }),
  output: Folder,
  example: { folder_id: 'd66d9655-f6fb-4fe9-b85f-3ec9d1734c11', name: 'Customer stories (2026)' },
  async handler(ctx, input) {
    const current = await lockFolder(ctx.db, ctx.workspaceId, input.folder_id);
    const name = input.name.trim();
    if (name !== current.name) await renameFolder(ctx.db, ctx.workspaceId, input.folder_id, name, ctx.now);
    return getFolder(ctx.db, ctx.workspaceId, input.folder_id);
  },
});
