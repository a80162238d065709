/**
 * delete_folder: deletes a folder and, in the same transaction, takes every video out of it (their
 * folder_id becomes null; the videos themselves stay). No event (the event list has none for folders).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { Timestamp } from '../../../../core/schemas.ts';
import { getFolder, lockFolder, deleteFolder as removeFolder } from '../folders.queries.ts';
import { FolderId } from '../folders.schemas.ts';

export const deleteFolder = defineOperation({
  name: 'delete_folder',
  summary: 'Delete a folder',
  description:
    'Deletes a folder. Its videos are not deleted: they are unfiled (folder_id becomes null), archived ones too, ' +
    'and unfiled_videos says how many. This cannot be undone; to keep the videos together, move them to another ' +
    'folder with update_video first.',
  method: 'DELETE',
  path: '/folders/{folder_id}',
  group: 'Folders',
  scope: 'videos:write',
  write: true,
  destructive: true,
  errors: ['not_found'],
  input: Type.Object({ folder_id: FolderId }, { additionalProperties: false }),
  output: Type.Object(
    {
      folder_id: FolderId,
      name: Type.String(),
      deleted: Type.Literal(true),
      unfiled_videos: Type.Integer({ minimum: 0, description: 'Videos that were in the folder, archived ones included, now in none.' }),
      deleted_at: Timestamp('When the folder was deleted.'),
    },
    { additionalProperties: false },
  ),
  example: { folder_id: 'd66d9655-f6fb-4fe9-b85f-3ec9d1734c11' },
  async handler(ctx, input) {
    // Locked first: videos being filed into it concurrently either finish first (and are unfiled here) or find it gone.
    await lockFolder(ctx.db, ctx.workspaceId, input.folder_id);
    const folder = await getFolder(ctx.db, ctx.workspaceId, input.folder_id);
    const unfiled = await removeFolder(ctx.db, ctx.workspaceId, input.folder_id, ctx.now);
    return {
      folder_id: folder.folder_id,
      name: folder.name,
      deleted: true as const,
      unfiled_videos: unfiled,
      deleted_at: ctx.now.toISOString(),
    };
  },
});
