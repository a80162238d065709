import { getVideoTranscript } from './operations/get-video-transcript.ts';

export const transcriptOperations = [getVideoTranscript];
