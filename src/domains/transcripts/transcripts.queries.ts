/** Transcripts: one per video, written by processing, read by the transcript operations. */
import type { Kysely } from 'kysely';
import { AppError } from '../../core/errors.ts';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database, TranscriptSegmentJson } from '../../db/tables/index.ts';

export interface NewTranscript {
  source: 'embedded_subtitles';
  language: string | null;
  segments: TranscriptSegmentJson[];
}

/** Stores (or replaces) the video's transcript; the text is the segments joined by spaces. */
export async function saveTranscript(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
  transcript: NewTranscript,
  now: Date,
): Promise<void> {
  const row = {
    source: transcript.source,
    language: transcript.language,
    segments: JSON.stringify(transcript.segments),
    full_text: transcript.segments.map((segment) => segment.text).join(' '),
    updated_at: now,
  };
  await db
    .insertInto('video_transcripts')
    .values({ video_id: videoId, workspace_id: workspaceId, created_at: now, ...row })
    .onConflict((conflict) => conflict.column('video_id').doUpdateSet(row))
    .execute();
}

/** The transcript of a video in this workspace; not_found for another workspace's video or none yet. */
export async function findTranscript(db: Kysely<Database>, workspaceId: string, videoId: string) {
  const row = await db
    .selectFrom('video_transcripts')
    .select(['source', 'language', 'segments', 'full_text', 'updated_at'])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .executeTakeFirst();
  if (row) return row;
  await findInWorkspace(db, 'videos', { workspaceId, id: videoId }, (query) => query.select('id'));
  throw new AppError('not_found', 'This video has no transcript yet.', { resource: 'transcript', video_id: videoId });
}
