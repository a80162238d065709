/** Shapes the search operations share: the query text, and a transcript moment. */
import { Type } from 'typebox';
import { NOT_BLANK, Nullable, VideoRef } from '../../core/schemas.ts';

export const SearchText = Type.String({
  minLength: 1,
  maxLength: 200,
  ...NOT_BLANK,
  description: 'Words to find; "a quoted phrase" must appear as written, -word excludes, or between words finds either.',
});

export const MomentHit = Type.Object(
  {
    video: VideoRef,
    start_seconds: Type.Number({ description: 'When the words are said.' }),
    end_seconds: Type.Number(),
    snippet: Type.String({ description: 'What is said there, the matched words between ** marks.' }),
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Relevance, 0–1; hits come best first.' }),
    watch_url: Nullable(Type.String({ description: 'The watch page starting at that second; null while the video is not public.' })),
    transcript_offset: Type.Integer({ minimum: 0, description: 'get_video_transcript’s offset where these words start.' }),
  },
  { additionalProperties: false },
);
