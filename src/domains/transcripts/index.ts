/**
 * The front door of the transcripts area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
export { findTranscriptMoments, type Moment, type MomentQuery, MOMENTS_RANKED_AT_MOST } from './moment-search.queries.ts';
export {
  queueSpeechToText,
  saveRecognisedSpeech,
  SPEECH_TO_TEXT_ATTEMPTS,
  SPEECH_TO_TEXT_JOB,
  videoAwaitingSpeech,
} from './speech-to-text.queries.ts';
export { captionLanguages, captionSegments, saveTranscript, type TranscriptFacts, transcriptFacts } from './transcripts.queries.ts';
export { TranscriptSummary } from './transcripts.schemas.ts';
export { deleteVideoTranscripts } from './transcript-removal.queries.ts';
