/** The search domain's operations, in catalog order (DESIGN §3). */
import { search } from './operations/search.ts';
import { searchTranscripts } from './operations/search-transcripts.ts';

export const searchOperations = [searchTranscripts, search];
