/**
 * Transcripts from recognised speech (docs/speech-to-text.md): the durable job that makes one, queued
 * when a video becomes ready without a transcript, and the writes that keep it from ever replacing a
 * transcript from another source. Captions uploaded while speech was being recognised win; captions
 * uploaded later replace a recognised transcript (set_video_transcript's upsert).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { enqueueJob } from '../../job-queue/queue.ts';
import type { TranscriptSegment } from '../../media/webvtt.ts';
import { saveTranscript } from './transcripts.queries.ts';
import { videosArea } from './videos-area.ts';

export const SPEECH_TO_TEXT_JOB = 'video.speech_to_text';
export const SPEECH_TO_TEXT_ATTEMPTS = 3;

/** Queues speech-to-text for a video; call it in the transaction that makes the video ready. */
export async function queueSpeechToText(db: Kysely<Database>, workspaceId: string, videoId: string, now: Date): Promise<void> {
  await enqueueJob(
    db,
    { kind: SPEECH_TO_TEXT_JOB, workspaceId, payload: { video_id: videoId }, maxAttempts: SPEECH_TO_TEXT_ATTEMPTS },
    now,
  );
}

/** The video's duration when it still wants its speech recognised: ready, in this workspace, and with no transcript at all. */
export async function videoAwaitingSpeech(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
): Promise<{ durationSeconds: number | null } | undefined> {
  const { videoInWorkspace } = await videosArea();
  const video = await videoInWorkspace(db, workspaceId, videoId)
    .select('duration_seconds')
    .where('videos.status', '=', 'ready')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('video_transcripts').select('video_id').whereRef('video_transcripts.video_id', '=', 'videos.id'))),
    )
    .executeTakeFirst();
  return video ? { durationSeconds: video.duration_seconds } : undefined;
}

/**
 * Stores recognised speech as the video's transcript only if it still has none, and says whether it
 * did. The row is claimed with an insert that does nothing on conflict, so a transcript committed
 * meanwhile (uploaded captions) is left as it is, and one being written now waits for this
 * transaction and then replaces it. Run it in a transaction.
 */
export async function saveRecognisedSpeech(
  db: Kysely<Database>,
  workspaceId: string,
  videoId: string,
  speech: { language: string | null; segments: TranscriptSegment[] },
  now: Date,
): Promise<boolean> {
  const { videoInWorkspace } = await videosArea();
  const claimed = await db
    .insertInto('video_transcripts')
    .columns(['video_id', 'workspace_id', 'source', 'language', 'search_config', 'segments', 'full_text', 'created_at', 'updated_at'])
    .expression(
      videoInWorkspace(db, workspaceId, videoId).select([
        'videos.id',
        'videos.workspace_id',
        sql.lit('speech_to_text').as('source'),
        sql<string | null>`${speech.language}`.as('language'),
        sql<string>`transcript_search_config(${speech.language})`.as('search_config'),
        sql<string>`'[]'::jsonb`.as('segments'),
        sql.lit('').as('full_text'),
        sql<Date>`${now}`.as('created_at'),
        sql<Date>`${now}`.as('updated_at'),
      ]),
    )
    .onConflict((conflict) => conflict.column('video_id').doNothing())
    .returning('video_id')
    .executeTakeFirst();
  if (!claimed) return false;
  await saveTranscript(db, workspaceId, videoId, { source: 'speech_to_text', ...speech }, now);
  return true;
}
