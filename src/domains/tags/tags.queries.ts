/**
 * Tag usage and tag renames across every taggable kind, always inside one workspace.
 */
import { type Kysely, sql } from 'kysely';
import { type KeysetOrder, keysetPage } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../core/lists/pagination.ts';
import type { Database } from '../../db/tables/index.ts';
import { TAGGABLE_KINDS, type TaggableKind } from './taggable.ts';

export interface TagUsage {
  tag: string;
  total: number;
  usage: Record<string, number>;
}

const ALPHABETICAL: KeysetOrder = { direction: 'asc', columns: [{ expression: 'tag_usage.tag', type: 'text' }] };

/** Tags in use, alphabetical, one page of them after the cursor's tag; with how many distinct tags there are. */
export async function listTagUsage(db: Kysely<Database>, workspaceId: string, page: PageRequest): Promise<KeysetRows<TagUsage>> {
  const uses = sql.join(
    TAGGABLE_KINDS.map(
      (k) => sql`select ${k.kind}::text as kind, unnest(tags) as tag from ${sql.table(k.table)} where workspace_id = ${workspaceId}`,
    ),
    sql` union all `,
  );
  // One row per tag: its uses in total and per kind.
  const perTag = sql<{ tag: string; total: number; usage: Record<string, number> }>`(
    select tag, sum(uses)::int as total, jsonb_object_agg(kind, uses) as usage
    from (select tag, kind, count(*)::int as uses from (${uses}) as tagged group by tag, kind) as per_kind
    group by tag)`;
  const { rows, keys, total } = await keysetPage(db.selectFrom(perTag.as('tag_usage')), (query) => query.selectAll(), ALPHABETICAL, page);
  const none = Object.fromEntries(TAGGABLE_KINDS.map((k) => [k.kind, 0]));
  return { rows: rows.map((row) => ({ tag: row.tag, total: row.total, usage: { ...none, ...row.usage } })), keys, total };
}

/**
 * Replaces `tag` by `newTag` on every row of one kind that carries it. A row that already carries
 * `newTag` just loses `tag` (a merge); the tag keeps its place in the list otherwise.
 */
export async function renameTagIn(
  db: Kysely<Database>,
  workspaceId: string,
  kind: TaggableKind,
  tag: string,
  newTag: string,
  now: Date,
): Promise<string[]> {
  const result = await sql<{ id: string }>`
    update ${sql.table(kind.table)}
    set tags = case when ${newTag} = any(tags) then array_remove(tags, ${tag}) else array_replace(tags, ${tag}, ${newTag}) end,
        updated_at = ${now}
    where workspace_id = ${workspaceId} and ${tag} = any(tags)
    returning id`.execute(db);
  return result.rows.map((r) => r.id);
}

export async function tagInUse(db: Kysely<Database>, workspaceId: string, tag: string): Promise<boolean> {
  for (const kind of TAGGABLE_KINDS) {
    const hit =
      await sql`select 1 from ${sql.table(kind.table)} where workspace_id = ${workspaceId} and ${tag} = any(tags) limit 1`.execute(db);
    if (hit.rows.length > 0) return true;
  }
  return false;
}
