/**
 * The SQL half of every list: one page by keyset, after the cursor's position in a stated order,
 * and the exact total of the filtered list, run together. The order's last column must be unique
 * (an id), so ties never repeat or skip a row across pages. The sort key of each row is read back
 * from the database with the row, not recomputed in JavaScript, so `lower(title)` and timestamps in
 * a cursor are exactly what the next page's comparison sees.
 */
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { AppError } from '../errors.ts';
import type { KeysetRows, PageRequest, SortKey } from './pagination.ts';

/** The SQL type a sort key value is cast to when it comes back in a cursor. */
export type SortColumnType = 'timestamptz' | 'uuid' | 'bigint' | 'float8' | 'text';

export interface SortColumn {
  /** A column or expression of the query, as SQL: `v.created_at`, `lower(v.title)`. Never user input. */
  expression: string;
  type: SortColumnType;
}

/** Columns in order of precedence, all in one direction, none nullable; the last one unique. */
export interface KeysetOrder {
  direction: 'asc' | 'desc';
  columns: readonly SortColumn[];
}

/** Newest first, for tables keyed by `(created_at, id)` (keys, endpoints, deliveries, …). */
export const NEWEST_FIRST: KeysetOrder = {
  direction: 'desc',
  columns: [
    { expression: 'created_at', type: 'timestamptz' },
    { expression: 'id', type: 'uuid' },
  ],
};

const KEY_ALIAS = 'keyset_key_';

/**
 * `filtered` is the list's query with its filters and no selection; `select` adds the row's columns.
 * Fetches `limit + 1` rows, so the caller knows whether more follow. `total`, when the caller already
 * scans the same filtered rows for something else (the ledger's totals per currency count them too),
 * is that count, and saves a second scan.
 */
export async function keysetPage<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  select: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  order: KeysetOrder,
  page: PageRequest,
  total?: Promise<number>,
): Promise<KeysetRows<O>> {
  let query = select(filtered).select(order.columns.map((column, i) => sql.raw(column.expression).as(`${KEY_ALIAS}${i}`)));
  if (page.after) query = query.where(after(order, page.after));
  for (const column of order.columns) query = query.orderBy(sql.raw(column.expression), order.direction);
  const counted =
    total ??
    filtered
      .select(sql<number>`count(*)`.as('total'))
      .executeTakeFirstOrThrow()
      .then((count) => Number((count as { total: number | string }).total));
  const [rows, count] = await Promise.all([query.limit(page.limit + 1).execute(), counted]);
  const keys = rows.map((row) => takeKey(row as Record<string, unknown>, order.columns.length));
  return { rows: rows as O[], keys, total: count };
}

/** Rows strictly after the key in the order: a row-value comparison, one index range scan. */
function after(order: KeysetOrder, key: SortKey): Expression<SqlBool> {
  // Only a cursor signed before this list's order changed can disagree with it.
  if (key.length !== order.columns.length) {
    throw AppError.invalid([{ field: 'cursor', problem: 'has expired; start again from the first page' }]);
  }
  const columns = sql.join(order.columns.map((column) => sql.raw(column.expression)));
  const values = sql.join(key.map((value, i) => sql`${value}::${sql.raw((order.columns[i] as SortColumn).type)}`));
  return order.direction === 'desc' ? sql<SqlBool>`(${columns}) < (${values})` : sql<SqlBool>`(${columns}) > (${values})`;
}

/** Removes the key columns from the row and answers them as a cursor's sort key. */
function takeKey(row: Record<string, unknown>, length: number): SortKey {
  const key: SortKey = [];
  for (let i = 0; i < length; i++) {
    const value = row[`${KEY_ALIAS}${i}`];
    delete row[`${KEY_ALIAS}${i}`];
    key.push(value instanceof Date ? value.toISOString() : (value as string | number | null));
  }
  return key;
}
