/**
 * The videos `search` finds: their words (title, description, tags; video_search_text, indexed in
 * both configurations by migration 0024) matching the query, or a title close to it (pg_trgm's word
 * similarity, so "Northwnd" finds "Customer story: Northwind"). A title match weighs more than one in
 * the description. Archived videos are left out, as list_videos leaves them out.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { bestRank, type SearchMatch, SNIPPET_OPTIONS, wordsOf } from './search-matches.ts';

const documentOf = (config: 'english' | 'simple') =>
  sql`to_tsvector(${sql.lit(config)}::regconfig, video_search_text(v.title, v.description, v.tags))`;

// Titles weigh most: the same words ranked as title (A) and as the rest (D).
const weightedOf = (config: 'english' | 'simple') =>
  sql`(setweight(to_tsvector(${sql.lit(config)}::regconfig, v.title), 'A') ||
    setweight(to_tsvector(${sql.lit(config)}::regconfig, v.description || ' ' || array_to_string(v.tags, ' ')), 'D'))`;

export async function findVideoMatches(db: Kysely<Database>, workspaceId: string, q: string, limit: number): Promise<SearchMatch[]> {
  const lower = q.toLowerCase();
  const { rows } = await sql<{ id: string; title: string; snippet: string; score: number; ready: boolean }>`
    with found as (
      select v.id, v.title, v.description, v.status = 'ready' as ready,
        greatest(${bestRank(weightedOf, q)}, word_similarity(${lower}, lower(v.title))) as score
      from videos v
      where v.workspace_id = ${workspaceId} and not v.archived
        and (${documentOf('english')} @@ ${wordsOf('english', q)} or ${documentOf('simple')} @@ ${wordsOf('simple', q)}
          or ${lower} <% lower(v.title))
      order by score desc, v.title, v.id
      limit ${limit}
    )
    select id, title, score, ready,
      ts_headline('english', concat_ws('. ', title, nullif(description, '')), ${wordsOf('english', q)}, ${SNIPPET_OPTIONS}) as snippet
    from found order by score desc, title, id`.execute(db);
  return rows.map((row) => ({
    kind: 'video',
    id: row.id,
    title: row.title,
    snippet: row.snippet,
    score: Number(row.score),
    isPublic: row.ready,
  }));
}
