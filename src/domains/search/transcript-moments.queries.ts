/**
 * The transcript moments search_transcripts and search find, with the search's marks around the
 * matched words. The statement that finds them, and what bounds its cost, is the transcripts area's
 * (findTranscriptMoments).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { findTranscriptMoments, type Moment, type MomentQuery } from '../transcripts/index.ts';

/** The marks around matched words in snippets. */
export const MATCH_MARK = '**';

export async function findMoments(db: Kysely<Database>, query: MomentQuery): Promise<Moment[]> {
  return findTranscriptMoments(db, query, MATCH_MARK);
}
