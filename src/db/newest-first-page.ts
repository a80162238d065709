/**
 * One page of a list ordered newest first, for tables keyed by `(created_at, id)`: a keyset query
 * fetching `limit + 1` rows after the cursor's position (so the caller knows whether more follow),
 * and the exact total of the filtered list, run together.
 */
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';

export interface PageRequest {
  /** The cursor's sort key, `[created_at, id]` of the last row of the previous page. */
  after: readonly unknown[] | undefined;
  limit: number;
}

export async function newestFirstPage<DB, TB extends keyof DB & string>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  page: PageRequest,
): Promise<{ rows: Selectable<DB[TB]>[]; total: number }> {
  let query = filtered
    .selectAll()
    .orderBy(sql`created_at`, 'desc')
    .orderBy(sql`id`, 'desc')
    .limit(page.limit + 1);
  if (page.after) {
    const [createdAt, id] = page.after as [string, string];
    query = query.where(sql<boolean>`(created_at, id) < (${new Date(createdAt)}, ${id})`);
  }
  const [rows, count] = await Promise.all([query.execute(), filtered.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow()]);
  return { rows: rows as Selectable<DB[TB]>[], total: Number((count as { total: number }).total) };
}
