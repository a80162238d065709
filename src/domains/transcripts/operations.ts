/** The transcripts area's operations, in the order the catalog (src/catalog.ts) lists them. */
import { getVideoTranscript } from './operations/get-video-transcript.ts';
import { setVideoTranscript } from './operations/set-video-transcript.ts';

export const transcriptOperations = [getVideoTranscript, setVideoTranscript];
