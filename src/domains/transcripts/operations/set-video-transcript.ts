/**
 * set_video_transcript: replaces a video's transcript with an uploaded caption file (WebVTT or SRT).
 * Writes video_transcripts and its searchable transcript_segments (source `captions`), marks the
 * video updated, and emits `video.updated` with `changed: ["transcript"]`; a file that says what
 * the transcript already says writes and emits nothing.
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { LanguageTag } from '../../../core/schemas.ts';
import { canonicalLanguageTag } from '../../../core/values/language-tag.ts';
import type { TranscriptSegment } from '../../../media/webvtt.ts';
import { emitVideoUpdated, getVideoDetail, lockVideo, touchVideo, VideoId } from '../../videos/index.ts';
import { captionProblems, captionUploadProblems, readCaptionUpload } from '../caption-upload.ts';
import { saveTranscript, storedTranscript } from '../transcripts.queries.ts';
import { CAPTION_TEXT_MAX_CHARS, CaptionFormatSchema, TranscriptSummary } from '../transcripts.schemas.ts';

export const setVideoTranscript = defineOperation({
  name: 'set_video_transcript',
  summary: 'Set a video’s transcript from captions',
  description:
    'Replaces a video’s transcript with a caption file: WebVTT or SRT, sent as text, with the spoken language as a BCP 47 tag. ' +
    'Cues without words are skipped; a file that cannot be read is refused, naming each line and its problem. ' +
    'Captions (captions_url), search and get_video_transcript then use these words.',
  method: 'PUT',
  path: '/videos/{video_id}/transcript',
  group: 'Transcripts',
  scope: 'videos:write',
  write: true,
  errors: ['not_found'],
  input: Type.Object(
    {
      video_id: VideoId,
      format: CaptionFormatSchema,
      language: LanguageTag('Spoken language: en, en-US, pt-BR.'),
      text: Type.String({ minLength: 1, maxLength: CAPTION_TEXT_MAX_CHARS, description: 'The whole caption file.' }),
    },
    { additionalProperties: false },
  ),
  databaseProblems: captionUploadProblems,
  output: Type.Object(
    {
      video_id: Type.String({ format: 'uuid' }),
      ...TranscriptSummary.properties,
      total_chars: Type.Integer({ minimum: 0, description: 'Length of the transcript text, which get_video_transcript pages through.' }),
      empty_cues_skipped: Type.Integer({ minimum: 0, description: 'Cues with no words, left out.' }),
      changed: Type.Boolean({ description: 'false when the file said what the transcript already said: nothing was written.' }),
    },
    { additionalProperties: false },
  ),
  example: {
    video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01',
    format: 'webvtt',
    language: 'en',
    text: 'WEBVTT\n\n00:00.500 --> 00:03.000\nWelcome to the product tour.\n',
  },
  async handler(ctx, input) {
    await lockVideo(ctx.db, ctx.workspaceId, input.video_id);
    const file = await readCaptionUpload(ctx.db, ctx.workspaceId, input);
    if (file.problems.length > 0) throw AppError.invalid(captionProblems(file));
    // The schema's language-tag format has accepted it, so it has a canonical form.
    const language = canonicalLanguageTag(input.language) ?? input.language;
    const stored = await storedTranscript(ctx.db, ctx.workspaceId, input.video_id);
    const changed = !(stored?.source === 'captions' && stored.language === language && sameSegments(stored.segments, file.segments));
    if (changed) {
      await saveTranscript(ctx.db, ctx.workspaceId, input.video_id, { source: 'captions', language, segments: file.segments }, ctx.now);
      await touchVideo(ctx.db, ctx.workspaceId, input.video_id, ctx.now);
    }
    const video = await getVideoDetail(ctx.db, ctx.workspaceId, input.video_id, ctx.links);
    if (changed) await emitVideoUpdated(ctx.emit, video, ['transcript']);
    // Saved above, or there already: a video with these captions has a transcript.
    const transcript = video.transcript as NonNullable<typeof video.transcript>;
    return {
      video_id: input.video_id,
      ...transcript,
      // The text is the segments joined by single spaces (saveTranscript).
      total_chars: file.segments.reduce((sum, segment) => sum + segment.text.length, 0) + file.segments.length - 1,
      empty_cues_skipped: file.emptyCues,
      changed,
    };
  },
});

function sameSegments(stored: readonly TranscriptSegment[], sent: readonly TranscriptSegment[]): boolean {
  return (
    stored.length === sent.length &&
    stored.every((segment, i) => {
      const other = sent[i] as TranscriptSegment;
      return segment.start_seconds === other.start_seconds && segment.end_seconds === other.end_seconds && segment.text === other.text;
    })
  );
}
