/**
 * The words of a workspace's routes, for search: each route's name, its steps' questions and its
 * current choices' labels. A workspace has tens of routes, not thousands, so each route's words are
 * put together at search time rather than indexed.
 */
import { type RawBuilder, sql } from 'kysely';

/**
 * Each route of the workspace (id, name, `live`, `words`), as SQL to name in a `with` clause:
 * `with routes_words as (${routeSearchWords(workspaceId)}) …`.
 */
export function routeSearchWords(workspaceId: string): RawBuilder<unknown> {
  return sql`select r.id, r.name, r.status = 'live' as live, concat_ws(' ', r.name,
        (select string_agg(s.question, ' ') from route_steps s where s.route_id = r.id),
        (select string_agg(c.label, ' ') from route_choices c where c.route_id = r.id and c.retired_at is null)) as words
      from routes r
      where r.workspace_id = ${workspaceId}`;
}
