/**
 * Transcripts: one per video, written by processing, set_video_transcript and speech-to-text, read
 * by the transcript operations. Saving one replaces its searchable segments (transcript_segments) in
 * the same statement order, each in the text search configuration of the transcript's language.
 */
import { type Kysely, sql } from 'kysely';
import { AppError } from '../../core/errors.ts';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database, TranscriptSegmentJson, TranscriptSource } from '../../db/tables/index.ts';

export interface NewTranscript {
  source: TranscriptSource;
  language: string | null;
  segments: TranscriptSegmentJson[];
}

/** Stores (or replaces) the video's transcript and its searchable segments; the text is the segments joined by spaces. Run it in a transaction. */
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
    search_config: sql<string>`transcript_search_config(${transcript.language})`,
    segments: JSON.stringify(transcript.segments),
    full_text: transcript.segments.map((segment) => segment.text).join(' '),
    updated_at: now,
  };
  await db
    .insertInto('video_transcripts')
    .values({ video_id: videoId, workspace_id: workspaceId, created_at: now, ...row })
    .onConflict((conflict) => conflict.column('video_id').doUpdateSet(row))
    .execute();
  await db.deleteFrom('transcript_segments').where('video_id', '=', videoId).execute();
  // In slices: a long talk has thousands of segments, and a statement takes at most 65,535 parameters.
  for (let first = 0; first < transcript.segments.length; first += SEGMENTS_PER_INSERT) {
    const slice = transcript.segments.slice(first, first + SEGMENTS_PER_INSERT);
    const values = sql.join(
      slice.map(
        (segment, index) =>
          sql`(${first + index}::integer, ${segment.start_seconds}::double precision, ${segment.end_seconds}::double precision, ${segment.text}::text)`,
      ),
    );
    await sql`insert into transcript_segments (video_id, workspace_id, position, start_seconds, end_seconds, text, search_config)
      select t.video_id, t.workspace_id, s.position, s.start_seconds, s.end_seconds, s.text, t.search_config
      from video_transcripts t, (values ${values}) as s(position, start_seconds, end_seconds, text)
      where t.video_id = ${videoId}`.execute(db);
  }
}

const SEGMENTS_PER_INSERT = 1000;

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
