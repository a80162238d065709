/**
 * The leads `search` finds, by the rules list_leads searches by (leadTextMatch): email, name or
 * notes holding the query, personal fields only whole while the workspace masks them. Without
 * masking a name close to the query is found too (a typo); with it, no fuzzy match, which would let
 * a caller probe a masked name letter by letter. The title and snippet are masked here, as every
 * personal field is while masking is on: they are no field the pipeline could mask by its schema.
 */
import { type Kysely, sql } from 'kysely';
import { maskValue } from '../../core/pii.ts';
import type { Database } from '../../db/tables/index.ts';
import { containsPattern, leadTextMatch } from '../leads/index.ts';
import type { SearchMatch } from './search-matches.ts';
import { MATCH_MARK } from './transcript-moments.queries.ts';

export async function findLeadMatches(
  db: Kysely<Database>,
  workspaceId: string,
  q: string,
  limit: number,
  masked: boolean,
): Promise<SearchMatch[]> {
  const lower = q.trim().toLowerCase();
  const name = sql`lead_search_name(l.name, l.first_name, l.last_name)`;
  const close = masked ? sql`false` : sql`${lower} <% ${name}`;
  const { rows } = await sql<{ id: string; email: string; display_name: string | null; note: string | null; score: number }>`
    select l.id, l.email, coalesce(l.name, nullif(concat_ws(' ', l.first_name, l.last_name), '')) as display_name,
      (select a.data->>'body' from lead_activities a
        where a.lead_id = l.id and a.workspace_id = ${workspaceId} and a.kind = 'note' and a.data->>'body' ilike ${containsPattern(lower)}
        order by a.occurred_at desc limit 1) as note,
      -- Every row found matches the text (0.5) or is close by name (a similarity of at least 0.6), so
      -- the text match need not be evaluated a second time for the score.
      greatest(case when lower(l.email) = ${lower} then 1 else 0 end, word_similarity(${lower}, ${name}), 0.5) as score
    from leads l
    where l.workspace_id = ${workspaceId} and (${leadTextMatch(workspaceId, q, masked)} or ${close})
    order by score desc, l.engagement_rank desc, l.id
    limit ${limit}`.execute(db);
  return rows.map((row) => {
    const title = row.display_name
      ? masked
        ? maskValue('name', row.display_name)
        : row.display_name
      : masked
        ? maskValue('email', row.email)
        : row.email;
    const email = masked ? maskValue('email', row.email) : row.email;
    return {
      kind: 'lead',
      id: row.id,
      title,
      snippet: row.note ? noteExcerpt(row.note, lower) : email,
      score: Number(row.score),
      isPublic: false,
    };
  });
}

/** Up to 160 characters of the note around the first place it says the query, the words marked. */
function noteExcerpt(note: string, lower: string): string {
  const at = note.toLowerCase().indexOf(lower);
  if (at === -1) return note.slice(0, 160);
  const from = Math.max(0, at - 60);
  const before = `${from > 0 ? '…' : ''}${note.slice(from, at)}`;
  const matched = note.slice(at, at + lower.length);
  const after = note.slice(at + lower.length, at + lower.length + 80);
  return `${before}${MATCH_MARK}${matched}${MATCH_MARK}${after}${at + lower.length + 80 < note.length ? '…' : ''}`;
}
