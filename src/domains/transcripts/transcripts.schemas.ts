/** Shapes the transcript operations share. */
import { StringEnum } from '../../core/schemas.ts';

export const TRANSCRIPT_SOURCES = ['captions', 'embedded', 'speech_to_text'] as const;

export const TranscriptSourceSchema = StringEnum(TRANSCRIPT_SOURCES, {
  description:
    'Where the words came from: captions (uploaded with set_video_transcript), embedded (the subtitle track inside the ' +
    'uploaded file) or speech_to_text (recognised from the audio).',
});
