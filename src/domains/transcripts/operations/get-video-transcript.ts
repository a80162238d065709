/**
 * get_video_transcript: the words spoken in a video, as text paged by characters (`offset`,
 * `max_chars`, so an assistant can read a long talk in pieces) and as the timed segments that fall in
 * that page. Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { Nullable, Timestamp } from '../../../core/schemas.ts';
import { VideoId } from '../../videos/index.ts';
import { findTranscript } from '../transcripts.queries.ts';
import { TranscriptSourceSchema } from '../transcripts.schemas.ts';

const Segment = Type.Object(
  {
    start_seconds: Type.Number({ description: 'When the words start, in seconds from the start of the video.' }),
    end_seconds: Type.Number({ description: 'When they end.' }),
    text: Type.String(),
  },
  { additionalProperties: false },
);

export const getVideoTranscript = defineOperation({
  name: 'get_video_transcript',
  summary: 'Get the transcript of a video',
  description:
    'Returns what is said in a video: the text, paged by characters (start at offset 0; when next_offset is not null, call again with it), ' +
    'and the timed segments that overlap the page, so a quote can be linked to its moment. A video without a transcript is not_found.',
  method: 'GET',
  path: '/videos/{video_id}/transcript',
  group: 'Transcripts',
  scope: 'transcripts:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object(
    {
      video_id: VideoId,
      offset: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 0, description: 'First character of the page.' }),
      max_chars: Type.Integer({ minimum: 1, maximum: 100_000, default: 20_000, description: 'Most characters to return.' }),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      video_id: Type.String({ format: 'uuid' }),
      source: TranscriptSourceSchema,
      language: Nullable(Type.String({ description: 'Language tag of the transcript, when known.' })),
      total_chars: Type.Integer({ description: 'Length of the whole transcript text.' }),
      offset: Type.Integer(),
      next_offset: Nullable(Type.Integer({ description: 'Where the next page starts; null on the last page.' })),
      text: Type.String({ description: 'The page of text.' }),
      segments: Type.Array(Segment, { description: 'The timed segments overlapping this page, in time order.' }),
      updated_at: Timestamp('When the transcript was last written.'),
    },
    { additionalProperties: false },
  ),
  example: { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01', offset: 0, max_chars: 20_000 },
  async handler(ctx, input) {
    const transcript = await findTranscript(ctx.db, ctx.workspaceId, input.video_id);
    const total = transcript.full_text.length;
    const start = Math.min(input.offset, total);
    const end = Math.min(start + input.max_chars, total);
    // full_text is the segments joined by single spaces, so each segment's place in it is known.
    let at = 0;
    const segments = transcript.segments.filter((segment) => {
      const from = at;
      at += segment.text.length + 1;
      return from < end && from + segment.text.length > start;
    });
    return {
      video_id: input.video_id,
      source: transcript.source,
      language: transcript.language,
      total_chars: total,
      offset: start,
      next_offset: end < total ? end : null,
      text: transcript.full_text.slice(start, end),
      segments,
      updated_at: transcript.updated_at.toISOString(),
    };
  },
});
