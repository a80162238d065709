/**
 * How a folder looks to callers: its name and how many videos are filed in it.
 */
import { type Static, Type } from 'typebox';
import { describedPattern, ResourceId, Timestamp, Trimmed } from '../../../core/schemas.ts';

export const FolderId = ResourceId('folder', 'The folder id, as returned by list_folders.');

export const FOLDER_NAME_MAX = 100;

/** 1–100 characters, not only spaces, no control characters; trimmed before it is judged and stored. */
export const FolderName = Trimmed(
  Type.String({
    minLength: 1,
    maxLength: FOLDER_NAME_MAX,
    ...describedPattern(
      '^(?=[\\s\\S]*\\S)[^\\u0000-\\u001F\\u007F]+$',
      'must not be blank or hold line breaks or other control characters',
    ),
    description: `1–${FOLDER_NAME_MAX} characters, not only spaces, no line breaks or control characters; trimmed. Unique in the workspace whatever the case.`,
  }),
);

export const Folder = Type.Object(
  {
    folder_id: FolderId,
    name: Type.String(),
    video_count: Type.Integer({
      minimum: 0,
      description: 'Videos filed in the folder, archived ones left out (as list_videos counts them).',
    }),
    archived_video_count: Type.Integer({ minimum: 0, description: 'Archived videos filed in the folder.' }),
    created_at: Timestamp('When the folder was created.'),
    updated_at: Timestamp('When the folder was created or last renamed.'),
  },
  { additionalProperties: false },
);
export type Folder = Static<typeof Folder>;
