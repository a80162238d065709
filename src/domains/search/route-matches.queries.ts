/**
 * The routes `search` finds: by their name, their steps' questions and their current choices'
 * labels (routeSearchWords, put together at search time), or a name close to the query.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { routeSearchWords } from '../routes/index.ts';
import { bestRank, type SearchMatch, SNIPPET_OPTIONS, wordsOf } from './search-matches.ts';

const documentOf = (config: 'english' | 'simple') => sql`to_tsvector(${sql.lit(config)}::regconfig, r.words)`;

export async function findRouteMatches(db: Kysely<Database>, workspaceId: string, q: string, limit: number): Promise<SearchMatch[]> {
  const lower = q.toLowerCase();
  const { rows } = await sql<{ id: string; name: string; snippet: string; score: number; live: boolean }>`
    with routes_words as (${routeSearchWords(workspaceId)}), found as (
      select r.id, r.name, r.live, r.words, greatest(${bestRank(documentOf, q)}, word_similarity(${lower}, lower(r.name))) as score
      from routes_words r
      where ${documentOf('english')} @@ ${wordsOf('english', q)} or ${documentOf('simple')} @@ ${wordsOf('simple', q)}
        or ${lower} <% lower(r.name)
      order by score desc, r.name, r.id
      limit ${limit}
    )
    select id, name, score, live, ts_headline('english', words, ${wordsOf('english', q)}, ${SNIPPET_OPTIONS}) as snippet
    from found order by score desc, name, id`.execute(db);
  return rows.map((row) => ({
    kind: 'route',
    id: row.id,
    title: row.name,
    snippet: row.snippet,
    score: Number(row.score),
    isPublic: row.live,
  }));
}
