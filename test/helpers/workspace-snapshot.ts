/**
 * Every row one workspace owns: its `workspaces` row, and its rows in every table that has a
 * `workspace_id` column. The tables are read from the database's own catalog, not listed by hand, so
 * a table a new migration adds is covered the day it lands. The security suites compare snapshots
 * before and after another workspace's calls, and look for the ids in them in every answer.
 */
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/client.ts';

type Db = DatabaseHandle['db'];

export interface WorkspaceSnapshot {
  /** Table → its rows for the workspace, each as JSON text, sorted. */
  rows: Record<string, string[]>;
  /** Every uuid anywhere in those rows: the workspace's ids, which no other workspace may see. */
  uuids: Set<string>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The tables of the current schema that have a `workspace_id` column. */
export async function tablesWithWorkspaceId(db: Db): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select c.table_name
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = current_schema() and c.column_name = 'workspace_id' and t.table_type = 'BASE TABLE'
     order by c.table_name`.execute(db);
  return rows.map((row) => row.table_name);
}

/**
 * `tables` defaults to tablesWithWorkspaceId's answer; a caller taking many snapshots reads it once
 * and passes it (the catalog query is the slowest part). Every table is read in one statement.
 */
export async function snapshotWorkspace(db: Db, workspaceId: string, tables?: readonly string[]): Promise<WorkspaceSnapshot> {
  const owned = tables ?? (await tablesWithWorkspaceId(db));
  const reads = [
    sql`select 'workspaces'::text as table_name, to_jsonb(w)::text as row from workspaces w where w.id = ${workspaceId}`,
    ...owned.map(
      (table) => sql`select ${sql.lit(table)}::text, to_jsonb(t)::text from ${sql.table(table)} t where t.workspace_id = ${workspaceId}`,
    ),
  ];
  const found = await sql<{ table_name: string; row: string }>`${sql.join(reads, sql` union all `)} order by 1, 2`.execute(db);
  const rows: Record<string, string[]> = Object.fromEntries(['workspaces', ...owned].map((table) => [table, []]));
  for (const { table_name, row } of found.rows) {
    const list = rows[table_name] ?? [];
    list.push(row);
    rows[table_name] = list;
  }
  const uuids = new Set(
    Object.values(rows)
      .flat()
      .flatMap((row) => row.match(UUID) ?? [])
      .map((id) => id.toLowerCase()),
  );
  return { rows, uuids };
}

/** What changed between two snapshots, one line per table, empty when nothing did. */
export function changesBetween(before: WorkspaceSnapshot, after: WorkspaceSnapshot): string[] {
  const changes: string[] = [];
  for (const table of new Set([...Object.keys(before.rows), ...Object.keys(after.rows)])) {
    const was = before.rows[table] ?? [];
    const is = after.rows[table] ?? [];
    const removed = was.filter((row) => !is.includes(row));
    const added = is.filter((row) => !was.includes(row));
    if (removed.length === 0 && added.length === 0) continue;
    const sample = (list: string[]) => (list[0] ? ` e.g. ${list[0].slice(0, 300)}` : '');
    changes.push(
      `${table}: ${removed.length} row(s) gone or changed${sample(removed)}; ${added.length} row(s) new or changed${sample(added)}`,
    );
  }
  return changes;
}
