/**
 * One thing `search` found, whatever its kind, before it is shaped for the answer; and the pieces of
 * SQL the kinds share: the query's words in the `english` (stemmed) and `simple` (as written)
 * configurations, and a rank normalised to 0–1.
 */
import { type RawBuilder, sql } from 'kysely';
import { MATCH_MARK } from './transcript-moments.queries.ts';

export type SearchKind = 'video' | 'transcript' | 'route' | 'lead';

export interface SearchMatch {
  kind: SearchKind;
  id: string;
  title: string;
  snippet: string;
  score: number;
  /** Whether it has a public page now (a ready, unarchived video; a live route). */
  isPublic: boolean;
}

/** The query's words in a configuration, as websearch_to_tsquery reads them (phrases, -excluded, or). */
export const wordsOf = (config: 'english' | 'simple', q: string) => sql`websearch_to_tsquery(${sql.lit(config)}::regconfig, ${q})`;

/** ts_headline's options: the matched words between the marks, a short excerpt. */
export const SNIPPET_OPTIONS = `StartSel=${MATCH_MARK}, StopSel=${MATCH_MARK}, MaxWords=25, MinWords=8`;

/** The better of the two configurations' ranks of `document`, 0–1 (ts_rank_cd normalised by rank / (rank + 1)). */
export function bestRank(document: (config: 'english' | 'simple') => RawBuilder<unknown>, q: string): RawBuilder<number> {
  return sql<number>`greatest(
    ts_rank_cd(${document('english')}, ${wordsOf('english', q)}, 32),
    ts_rank_cd(${document('simple')}, ${wordsOf('simple', q)}, 32))`;
}
