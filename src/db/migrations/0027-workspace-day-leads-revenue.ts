/**
 * New leads and succeeded revenue per workspace and local day (issue 17): with them the workspace
 * summary and daily series read one row per day (and currency) instead of every lead and ledger
 * entry of the period, so their cost no longer grows with the business's history. Kept by the
 * writers of leads and entries from now on (domains/viewing/workspace-day-counts.queries.ts);
 * filled here from what exists, each instant put on its local day in the workspace's zone in the
 * application, as the writers do (workspace-day-rebuild.ts).
 */
import { type Kysely, sql } from 'kysely';
import { rebuildWorkspaceLedgerDays } from '../../domains/viewing/index.ts';

const statements = [
  'alter table workspace_daily_stats add column new_leads integer not null default 0',
  `create table workspace_daily_revenue (
    workspace_id uuid not null references workspaces(id) on delete cascade,
    day date not null,
    currency text not null,
    purchases integer not null default 0,
    purchased bigint not null default 0,
    refunds integer not null default 0,
    refunded bigint not null default 0,
    primary key (workspace_id, day, currency)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  const { rows } = await sql<{ id: string }>`select id from workspaces`.execute(db);
  for (const { id } of rows) await rebuildWorkspaceLedgerDays(db, id);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists workspace_daily_revenue`.execute(db);
  await sql`alter table workspace_daily_stats drop column if exists new_leads`.execute(db);
}
