/**
 * Transcripts: one per video, written by processing, set_video_transcript and speech-to-text, read
 * by the transcript operations, by what videos say of theirs, and by the public captions. Saving one
 * replaces its searchable segments (transcript_segments) in the same statement order, each in the
 * text search configuration of the transcript's language.
 */
import { type Kysely, sql } from 'kysely';
import { AppError } from '../../core/errors.ts';
import type { Database, TranscriptSegmentJson, TranscriptSource } from '../../db/tables/index.ts';
import { videosArea } from './videos-area.ts';

export interface NewTranscript {
  source: TranscriptSource;
  language: string | null;
  segments: TranscriptSegmentJson[];
}

/**
 * Stores (or replaces) the video's transcript and its searchable segments; the text is the segments
 * joined by spaces. Captions someone uploaded are never replaced by words a machine found: a
 * transcript from the file's subtitle track or from speech-to-text is not saved over `captions`
 * (processing can finish after set_video_transcript). Returns whether it was saved. Run it in a
 * transaction.
 */
export async function saveTranscript(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
  transcript: NewTranscript,
  now: Date,
): Promise<boolean> {
  const row = {
    source: transcript.source,
    language: transcript.language,
    search_config: sql<string>`transcript_search_config(${transcript.language})`,
    segments: JSON.stringify(transcript.segments),
    full_text: transcript.segments.map((segment) => segment.text).join(' '),
    updated_at: now,
  };
  const saved = await db
    .insertInto('video_transcripts')
    .values({ video_id: videoId, workspace_id: workspaceId, created_at: now, ...row })
    .onConflict((conflict) => {
      const replace = conflict.column('video_id').doUpdateSet(row);
      return transcript.source === 'captions' ? replace : replace.where('video_transcripts.source', '<>', 'captions');
    })
    .returning('video_id')
    .executeTakeFirst();
  if (!saved) return false;
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
  return true;
}

const SEGMENTS_PER_INSERT = 1000;

export interface TranscriptFacts {
  source: TranscriptSource;
  language: string | null;
  segments: number;
  updated_at: Date;
}

/** By video id, what these videos of the workspace have for a transcript; a video without one is not in the map. */
export async function transcriptFacts(
  db: Kysely<Database>,
  workspaceId: string,
  videoIds: readonly string[],
): Promise<Map<string, TranscriptFacts>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('video_transcripts')
    .select(['video_id', 'source', 'language', 'updated_at', sql<number>`jsonb_array_length(segments)`.as('segments')])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', 'in', videoIds)
    .execute();
  return new Map(rows.map(({ video_id, ...facts }) => [video_id, facts]));
}

/**
 * By video id, the language of each of these videos' transcripts (null when unknown): what a page
 * needs to offer captions, without reading the words.
 */
export async function captionLanguages(
  db: Kysely<Database>,
  workspaceId: string,
  videoIds: readonly string[],
): Promise<Map<string, string | null>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('video_transcripts')
    .select(['video_id', 'language'])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', 'in', videoIds)
    .execute();
  return new Map(rows.map((row) => [row.video_id, row.language]));
}

/** The video's transcript as stored, to tell a change from a repeat; undefined without one. */
export async function storedTranscript(db: Kysely<Database>, workspaceId: string, videoId: string) {
  return db
    .selectFrom('video_transcripts')
    .select(['source', 'language', 'segments'])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .executeTakeFirst();
}

/** The timed segments of a video's transcript, for its captions file; undefined without one. */
export async function captionSegments(db: Kysely<Database>, workspaceId: string, videoId: string) {
  return db
    .selectFrom('video_transcripts')
    .select(['segments'])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .executeTakeFirst();
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
  await (await videosArea()).assertVideoInWorkspace(db, workspaceId, videoId);
  throw new AppError('not_found', 'This video has no transcript yet.', { resource: 'transcript', video_id: videoId });
}
