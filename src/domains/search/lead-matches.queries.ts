/**
 * The leads `search` finds (leadSearchMatches: by the rules list_leads searches by, no fuzzy match
 * while the workspace masks personal fields), as search answers them. The title and snippet are
 * masked here, as every personal field is while masking is on: they are no field the pipeline could
 * mask by its schema.
 */
import type { Kysely } from 'kysely';
import { maskValue } from '../../core/pii.ts';
import type { Database } from '../../db/tables/index.ts';
import { leadSearchMatches } from '../leads/index.ts';
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
  const rows = await leadSearchMatches(db, workspaceId, q, limit, masked);
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
