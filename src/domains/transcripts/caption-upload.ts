/**
 * The caption file set_video_transcript is sent, read against its video: the same reading for the
 * pipeline, on an input whose shape is wrong (Operation.databaseProblems, so one answer lists the
 * file's problems with the others), and for the handler, on a valid input in its transaction. Each
 * problem of the file is one problem of the `text` field, naming its line.
 */
import type { Kysely } from 'kysely';
import type { FieldProblem } from '../../core/errors.ts';
import { isUuid } from '../../core/values/real-instants.ts';
import type { Database } from '../../db/tables/index.ts';
import { CAPTION_FORMATS, type CaptionFile, type CaptionFormat, readCaptionFile } from '../../media/caption-file.ts';
import { videoDuration } from '../videos/index.ts';
import { CAPTION_TEXT_MAX_CHARS } from './transcripts.schemas.ts';

export interface CaptionUpload {
  video_id: string;
  format: CaptionFormat;
  text: string;
}

/** The file's cues and problems; cues starting after the video's end are problems once its length is known. */
export async function readCaptionUpload(db: Kysely<Database>, workspaceId: string, upload: CaptionUpload): Promise<CaptionFile> {
  const seconds = await videoDuration(db, workspaceId, upload.video_id);
  return readCaptionFile(upload.format, upload.text, seconds ?? null);
}

export function captionProblems(file: CaptionFile): FieldProblem[] {
  return file.problems.map((problem) => ({ field: 'text', problem }));
}

/** For an input as sent: the file's problems when the fields it needs are well formed, none otherwise (the schema names those). */
export async function captionUploadProblems(db: Kysely<Database>, workspaceId: string, input: unknown): Promise<FieldProblem[]> {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const { video_id: videoId, format, text } = fields;
  if (typeof text !== 'string' || text.length > CAPTION_TEXT_MAX_CHARS || text.includes('\u0000')) return [];
  if (!CAPTION_FORMATS.includes(format as CaptionFormat)) return [];
  // Without a well-formed video id there is no length to check the cues against; the rest still is.
  const upload = { video_id: typeof videoId === 'string' && isUuid(videoId) ? videoId : '', format: format as CaptionFormat, text };
  const file = upload.video_id ? await readCaptionUpload(db, workspaceId, upload) : readCaptionFile(upload.format, upload.text, null);
  return captionProblems(file);
}
