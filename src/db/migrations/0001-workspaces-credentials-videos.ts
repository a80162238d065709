/**
 * The service core: workspaces, their credentials, the video library (folders, tags, stats),
 * idempotency records and the events outbox.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table workspaces (
    id uuid primary key,
    name text not null,
    plan text not null check (plan in ('free', 'pro', 'business')),
    mask_pii boolean not null default true,
    assistant_guidance text not null default '',
    timezone text not null default 'UTC',
    created_at timestamptz(3) not null default now()
  )`,
  `create table credentials (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    kind text not null check (kind in ('api_key', 'assistant')),
    name text not null,
    prefix text not null,
    token_hash text not null unique,
    scopes text[] not null,
    created_by uuid references credentials(id) on delete set null,
    created_at timestamptz(3) not null default now(),
    expires_at timestamptz(3),
    revoked_at timestamptz(3)
  )`,
  'create index credentials_workspace_idx on credentials (workspace_id, created_at desc, id desc)',
  `create table folders (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    name text not null,
    created_at timestamptz(3) not null default now(),
    unique (workspace_id, name)
  )`,
  `create table videos (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    folder_id uuid references folders(id) on delete set null,
    title text not null,
    description text not null default '',
    tags text[] not null default '{}',
    status text not null check (status in ('waiting_upload', 'processing', 'ready', 'failed')),
    archived boolean not null default false,
    source_url text,
    file_name text,
    file_size bigint,
    duration_seconds double precision,
    width integer,
    height integer,
    failure_reason text,
    view_count bigint not null default 0,
    created_at timestamptz(3) not null default now(),
    updated_at timestamptz(3) not null default now()
  )`,
  'create index videos_newest_idx on videos (workspace_id, created_at desc, id desc)',
  'create index videos_title_idx on videos (workspace_id, lower(title), id)',
  'create index videos_views_idx on videos (workspace_id, view_count desc, id desc)',
  'create index videos_tags_idx on videos using gin (tags)',
  `create table video_stats (
    video_id uuid primary key references videos(id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    views bigint not null default 0,
    unique_viewers bigint not null default 0,
    watch_time_seconds bigint not null default 0,
    engagement_sum double precision not null default 0,
    completions bigint not null default 0,
    conversions bigint not null default 0,
    leads bigint not null default 0,
    updated_at timestamptz(3) not null default now()
  )`,
  `create table idempotency_keys (
    credential_id uuid not null references credentials(id) on delete cascade,
    key text not null,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    operation text not null,
    fingerprint text not null,
    state text not null check (state in ('running', 'completed')),
    response_status integer,
    response_body text,
    locked_at timestamptz(3) not null,
    expires_at timestamptz(3) not null,
    primary key (credential_id, key)
  )`,
  'create index idempotency_keys_expiry_idx on idempotency_keys (expires_at)',
  `create table events (
    id uuid primary key,
    sequence bigserial not null unique,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    type text not null,
    data jsonb not null,
    created_at timestamptz(3) not null default now()
  )`,
  'create index events_workspace_idx on events (workspace_id, sequence)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['events', 'idempotency_keys', 'video_stats', 'videos', 'folders', 'credentials', 'workspaces']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
}
