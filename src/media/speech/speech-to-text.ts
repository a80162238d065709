/**
 * What a speech-to-text engine is to the rest of the service: the sound of a video in (a WAV file of
 * 16 kHz mono 16-bit PCM, made by speech-audio.ts), timed segments of text and a language out. The
 * engines are the local one (pocketsphinx.ts) and any OpenAI-compatible server
 * (openai-transcriptions.ts); video-transcription.ts in src/workers runs them.
 */
import type { TranscriptSegment } from '../webvtt.ts';

export interface RecognisedSpeech {
  /** The spoken language as a BCP 47 tag (`en`), or null when the engine could not say. */
  language: string | null;
  /** In time order; seconds from the start of the video. Empty when no words were heard. */
  segments: TranscriptSegment[];
}

export interface SpeechToText {
  /** Which engine this is, for logs: `local (pocketsphinx, English)`, `http (https://api.openai.com/v1, whisper-1)`. */
  readonly description: string;
  /** Recognises the speech in a WAV file that speech-audio.ts made. Stops at once when `signal` aborts. */
  transcribe(wavPath: string, options: { signal?: AbortSignal }): Promise<RecognisedSpeech>;
}

/** A transcription that did not happen, with a sentence for the operator's log that says why. */
export class SpeechToTextError extends Error {
  override name = 'SpeechToTextError';
}
