/** Shapes the transcript operations share, and the summary of a transcript a video carries. */
import { Type } from 'typebox';
import { Nullable, StringEnum, Timestamp } from '../../core/schemas.ts';
import { CAPTION_FORMATS } from '../../media/caption-file.ts';

export const TRANSCRIPT_SOURCES = ['captions', 'embedded', 'speech_to_text'] as const;

export const TranscriptSourceSchema = StringEnum(TRANSCRIPT_SOURCES, {
  description:
    'Where the words came from: captions (uploaded with set_video_transcript), embedded (the subtitle track inside the ' +
    'uploaded file) or speech_to_text (recognised from the audio).',
});

/**
 * The longest caption file set_video_transcript takes, in characters. A three-hour talk's captions
 * are about 150,000; the request body as a whole is bounded too, at 1 MiB (docs/api-conventions.md).
 */
export const CAPTION_TEXT_MAX_CHARS = 1_000_000;

export const CaptionFormatSchema = StringEnum(CAPTION_FORMATS, { description: 'The caption file’s format: webvtt (.vtt) or srt.' });

/** What a video says of its transcript (get_video, list_videos, video.* events); get_video_transcript reads the words. */
export const TranscriptSummary = Type.Object(
  {
    source: TranscriptSourceSchema,
    language: Nullable(Type.String({ description: 'BCP 47 tag of the spoken language, when known.' })),
    segments: Type.Integer({ minimum: 0, description: 'How many timed segments it has.' }),
    captions_url: Nullable(
      Type.String({ description: 'The WebVTT captions players load, while the video is public (ready, not archived).' }),
    ),
    updated_at: Timestamp('When it was last written.'),
  },
  { additionalProperties: false, description: 'The video’s transcript; null when it has none.' },
);
