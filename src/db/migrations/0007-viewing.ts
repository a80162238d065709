/**
 * Viewing data. `viewing_sessions` holds each page view's state (what it has watched so far), so a
 * new batch adds only its difference to the rollups; `viewing_batches` keeps the raw batches for
 * journeys and audits until the retention setting prunes them; `video_daily_stats` (per video per
 * local day) and `video_heatmaps` (per video, 100 slices) are the rollups every analytics read uses,
 * so no read scans raw events. (0006 is the webhooks migration.)
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table viewing_sessions (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    video_id uuid not null references videos(id) on delete cascade,
    viewer_id text not null,
    day date not null,
    duration_seconds double precision not null,
    started_at timestamptz(3) not null,
    last_seen_at timestamptz(3) not null,
    last_sequence integer not null,
    watched jsonb not null,
    played_seconds double precision not null default 0,
    is_view boolean not null default false,
    completed boolean not null default false,
    cta_clicks integer not null default 0
  )`,
  'create index viewing_sessions_video_idx on viewing_sessions (video_id, started_at)',
  'create index viewing_sessions_workspace_idx on viewing_sessions (workspace_id, started_at)',
  `create table viewing_batches (
    session_id uuid not null,
    sequence integer not null,
    workspace_id uuid not null,
    video_id uuid not null,
    events jsonb not null,
    received_at timestamptz(3) not null,
    primary key (session_id, sequence)
  )`,
  'create index viewing_batches_received_idx on viewing_batches (received_at)',
  `create table video_daily_stats (
    video_id uuid not null references videos(id) on delete cascade,
    day date not null,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    views integer not null default 0,
    unique_viewers integer not null default 0,
    viewer_sketch bytea not null,
    watch_time_seconds double precision not null default 0,
    engagement_sum double precision not null default 0,
    completions integer not null default 0,
    conversions integer not null default 0,
    primary key (video_id, day)
  )`,
  'create index video_daily_stats_workspace_idx on video_daily_stats (workspace_id, day)',
  `create table video_heatmaps (
    video_id uuid primary key references videos(id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    views integer not null default 0,
    reach integer[] not null,
    plays integer[] not null,
    cta_clicks integer[] not null
  )`,
  'alter table video_stats add column viewer_sketch bytea',
  'alter table video_stats alter column watch_time_seconds type double precision',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['video_heatmaps', 'video_daily_stats', 'viewing_batches', 'viewing_sessions']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
  await sql`alter table video_stats drop column if exists viewer_sketch`.execute(db);
  await sql`alter table video_stats alter column watch_time_seconds type bigint`.execute(db);
}
