/** A deleted video's transcript goes with it: the transcript row and its timed segments, which search reads. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** Deletes the video's transcript and its searchable segments (the captions, and search's moments of it). */
export async function deleteVideoTranscripts(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<void> {
  await db.deleteFrom('transcript_segments').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId).execute();
  await db.deleteFrom('video_transcripts').where('workspace_id', '=', workspaceId).where('video_id', '=', videoId).execute();
}
