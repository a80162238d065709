/**
 * Tag usage and tag renames across every taggable kind, always inside one workspace.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables.ts';
import { TAGGABLE_KINDS, type TaggableKind } from './taggable.ts';

export interface TagUsage {
  tag: string;
  total: number;
  usage: Record<string, number>;
}

/** Tags in use, alphabetical, starting after `after`; plus how many distinct tags there are. */
export async function listTagUsage(
  db: Kysely<Database>,
  workspaceId: string,
  page: { after: string | undefined; limit: number },
): Promise<{ rows: TagUsage[]; total: number }> {
  const union = sql.join(
    TAGGABLE_KINDS.map(
      (k) => sql`select ${k.kind}::text as kind, unnest(tags) as tag from ${sql.table(k.table)} where workspace_id = ${workspaceId}`,
    ),
    sql` union all `,
  );
  const after = page.after === undefined ? sql`true` : sql`tag > ${page.after}`;
  const rows = await sql<{ tag: string; kind: string; uses: number }>`
    with uses as (${union}),
    page as (select distinct tag from uses where ${after} order by tag limit ${page.limit + 1})
    select uses.tag, uses.kind, count(*)::int as uses from uses join page using (tag)
    group by uses.tag, uses.kind order by uses.tag`.execute(db);
  const count = await sql<{ total: number }>`with uses as (${union}) select count(distinct tag)::int as total from uses`.execute(db);

  const byTag = new Map<string, TagUsage>();
  for (const row of rows.rows) {
    let entry = byTag.get(row.tag);
    if (!entry) {
      entry = { tag: row.tag, total: 0, usage: Object.fromEntries(TAGGABLE_KINDS.map((k) => [k.kind, 0])) };
      byTag.set(row.tag, entry);
    }
    entry.usage[row.kind] = row.uses;
    entry.total += row.uses;
  }
  return { rows: [...byTag.values()], total: count.rows[0]?.total ?? 0 };
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
