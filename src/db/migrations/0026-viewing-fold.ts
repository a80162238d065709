/**
 * Collection at scale (issue 17, docs/analytics.md "How the numbers are kept"). A request now only
 * stores its raw batch; the worker folds stored batches into the sessions and rollups later, in
 * order, exactly once. For that each batch row carries:
 *
 * - `fold_xid`: the transaction that stored it (`pg_current_xact_id()`), and `position`: a number
 *   from a sequence. Ordered by (fold_xid, position) the rows form a log the fold reads from a cursor.
 *   Positions alone would not do: a transaction can take a position, commit after a later one and be
 *   skipped by a fold that already passed it. A transaction id below the oldest still running
 *   (`pg_snapshot_xmin`) belongs to a transaction that has ended, and no new one can get an id that
 *   low, so folding only below that horizon never skips a row that commits later.
 * - `viewer_id`: the browser's id, which the session takes from its first batch.
 *
 * Rows stored before this migration have no fold_xid: they were counted as they arrived, and the
 * fold never reads them. `viewing_fold` holds the cursor: one row, locked by the fold that runs, so
 * two workers never fold at once.
 *
 * `workspace_daily_stats` is the per-workspace day rollup get_analytics_summary and
 * get_analytics_daily read, so their cost follows days, not video-days: the same sums as
 * video_daily_stats, a viewer sketch of the workspace's day, and a sketch of the videos viewed that
 * day (videos watched over a period is the count of the merged video sketches). It is filled here from
 * video_daily_stats, sketches merged in the application, one workspace at a time
 * (workspace-day-rebuild.ts).
 */
import { type Kysely, sql } from 'kysely';
import { rebuildWorkspaceDays } from '../../domains/viewing/index.ts';

const statements = [
  'alter table viewing_batches add column viewer_id text',
  'alter table viewing_batches add column fold_xid xid8',
  'create sequence viewing_batches_position_seq as bigint',
  'alter table viewing_batches add column position bigint',
  // Defaults set after the columns exist, so the rows already stored keep nulls and the table is not rewritten.
  'alter table viewing_batches alter column fold_xid set default pg_current_xact_id()',
  "alter table viewing_batches alter column position set default nextval('viewing_batches_position_seq')",
  'alter sequence viewing_batches_position_seq owned by viewing_batches.position',
  'create index viewing_batches_fold_idx on viewing_batches (fold_xid, position) where fold_xid is not null',
  `create table viewing_fold (
    id smallint primary key default 1 check (id = 1),
    fold_xid xid8 not null,
    position bigint not null,
    folded_at timestamptz(3)
  )`,
  `insert into viewing_fold (fold_xid, position) values ('0', 0)`,
  `create table workspace_daily_stats (
    workspace_id uuid not null references workspaces(id) on delete cascade,
    day date not null,
    views integer not null default 0,
    unique_viewers integer not null default 0,
    viewer_sketch bytea not null,
    video_sketch bytea not null,
    watch_time_seconds double precision not null default 0,
    engagement_sum double precision not null default 0,
    completions integer not null default 0,
    conversions integer not null default 0,
    leads integer not null default 0,
    primary key (workspace_id, day)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  const workspaces = await sql<{ workspace_id: string }>`select distinct workspace_id from video_daily_stats`.execute(db);
  for (const { workspace_id: workspaceId } of workspaces.rows) await rebuildWorkspaceDays(db, workspaceId);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists workspace_daily_stats`.execute(db);
  await sql`drop table if exists viewing_fold`.execute(db);
  await sql`drop index if exists viewing_batches_fold_idx`.execute(db);
  for (const column of ['position', 'fold_xid', 'viewer_id']) {
    await sql.raw(`alter table viewing_batches drop column if exists ${column}`).execute(db);
  }
}
