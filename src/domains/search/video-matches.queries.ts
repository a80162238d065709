/**
 * The videos `search` finds: their words (title, description, tags; video_search_text, indexed in
 * both configurations by migration 0024) matching the query, or a title close to it (pg_trgm's word
 * similarity, so "Northwnd" finds "Customer story: Northwind"). A title match weighs more than one in
 * the description. Archived videos are left out, as list_videos leaves them out.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { unarchivedVideosMatching } from '../videos/index.ts';
import { bestRank, type SearchMatch, SNIPPET_OPTIONS, wordsOf } from './search-matches.ts';

const documentOf = (config: 'english' | 'simple') =>
  sql`to_tsvector(${sql.lit(config)}::regconfig, video_search_text(v.title, v.description, v.tags))`;

// Titles weigh most: the same words ranked as title (A) and as the rest (D).
const weightedOf = (config: 'english' | 'simple') =>
  sql`(setweight(to_tsvector(${sql.lit(config)}::regconfig, v.title), 'A') ||
    setweight(to_tsvector(${sql.lit(config)}::regconfig, v.description || ' ' || array_to_string(v.tags, ' ')), 'D'))`;

/**
 * Most videos each way of matching (english words, simple words, a close title) brings to be
 * ranked. Ranking reads each video's words again (four tsvectors: the title and the rest, in both
 * configurations), about 70 µs a video: a word in most of 10,000 videos took half a second. Above
 * the bound, the best of the first ones each index finds.
 */
export const VIDEOS_RANKED_AT_MOST = 60;

export async function findVideoMatches(db: Kysely<Database>, workspaceId: string, q: string, limit: number): Promise<SearchMatch[]> {
  const lower = q.toLowerCase();
  // One branch per index, so each is read alone: with the three conditions or-ed, every row any of
  // them found was tested against all three (the title trigrams' rows rechecked, tsvectors made again).
  const matching = (condition: RawBuilder<unknown>) => sql`(${unarchivedVideosMatching(workspaceId, condition, VIDEOS_RANKED_AT_MOST)})`;
  const { rows } = await sql<{ id: string; title: string; snippet: string; score: number; ready: boolean }>`
    with found as materialized (
      ${matching(sql`${documentOf('english')} @@ ${wordsOf('english', q)}`)}
      union ${matching(sql`${documentOf('simple')} @@ ${wordsOf('simple', q)}`)}
      union ${matching(sql`${lower} <% lower(v.title)`)}
    ), ranked as (
      select v.id, v.title, v.description, v.ready, greatest(${bestRank(weightedOf, q)}, word_similarity(${lower}, lower(v.title))) as score
      from found v
      order by score desc, v.title, v.id
      limit ${limit}
    )
    select id, title, score, ready,
      ts_headline('english', concat_ws('. ', title, nullif(description, '')), ${wordsOf('english', q)}, ${SNIPPET_OPTIONS}) as snippet
    from ranked order by score desc, title, id`.execute(db);
  return rows.map((row) => ({
    kind: 'video',
    id: row.id,
    title: row.title,
    snippet: row.snippet,
    score: Number(row.score),
    isPublic: row.ready,
  }));
}
