/**
 * The leads `search` finds, by the rules list_leads searches by (leadTextMatch): email, name or
 * notes holding the query, personal fields only whole while the workspace masks them. Without
 * masking a name close to the query is found too (a typo); with it, no fuzzy match, which would let
 * a caller probe a masked name letter by letter. Rows come back as stored: the search masks what it
 * shows.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { containsPattern, leadTextMatch } from './leads.queries.ts';

export interface LeadSearchRow {
  id: string;
  email: string;
  /** The name, or the first and last names; null when the lead has neither. */
  display_name: string | null;
  /** The latest note saying the query, if any. */
  note: string | null;
  score: number;
}

/** The workspace's leads matching `q`, best first (then the most engaged), at most `limit`, with their latest matching note. */
export async function leadSearchMatches(
  db: Kysely<Database>,
  workspaceId: string,
  q: string,
  limit: number,
  masked: boolean,
): Promise<LeadSearchRow[]> {
  const lower = q.trim().toLowerCase();
  const name = sql`lead_search_name(l.name, l.first_name, l.last_name)`;
  const { rows } = await sql<LeadSearchRow>`
    select l.id, l.email, coalesce(l.name, nullif(concat_ws(' ', l.first_name, l.last_name), '')) as display_name,
      (select a.data->>'body' from lead_activities a
        where a.lead_id = l.id and a.workspace_id = ${workspaceId} and a.kind = 'note' and a.data->>'body' ilike ${containsPattern(lower)}
        order by a.occurred_at desc limit 1) as note,
      -- Every row found matches the text (0.5) or is close by name (a similarity of at least 0.6), so
      -- the text match need not be evaluated a second time for the score.
      greatest(case when lower(l.email) = ${lower} then 1 else 0 end, word_similarity(${lower}, ${name}), 0.5) as score
    from leads l
    where l.workspace_id = ${workspaceId} and ${leadTextMatch(workspaceId, q, masked, { closeNames: !masked })}
    order by score desc, l.engagement_rank desc, l.id
    limit ${limit}`.execute(db);
  return rows;
}
