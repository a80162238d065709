/**
 * What the processing jobs write on a video row: the size of a source they downloaded, and the end of
 * processing (ready with the file's facts, or failed with a reason), which only a video still
 * processing takes.
 */
import type { Kysely, Updateable } from 'kysely';
import type { Database, VideosTable } from '../../../db/tables/index.ts';

/** Records the size of the source file an import downloaded. */
export async function recordSourceFileSize(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
  bytes: number,
  now: Date,
): Promise<void> {
  await db
    .updateTable('videos')
    .set({ file_size: bytes, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', videoId)
    .execute();
}

/**
 * Ends processing with `changes` (ready or failed, and what goes with it), unless the video already
 * left processing; answers whether it did, so only the call that ended it goes on to announce it.
 */
export async function endProcessing(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
  changes: Omit<Updateable<VideosTable>, 'id' | 'workspace_id' | 'status' | 'updated_at'> & { status: 'ready' | 'failed' },
  now: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('videos')
    .set({ ...changes, updated_at: now })
    .where('id', '=', videoId)
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'processing')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
