/**
 * Leads and the revenue ledger (issue 12, docs/leads-and-outcomes.md).
 *
 * - `leads`: one per email in a workspace, compared case-insensitively after trimming (the unique
 *   index is on lower(email); the column keeps the address as it was given, trimmed). The
 *   engagement score is maintained as activity arrives: `engagement_points` decayed to
 *   `engagement_at`, and `engagement_rank`, the same points carried to a fixed epoch, so "most
 *   engaged first" is one index scan whatever time it is (domains/leads/engagement-score.ts).
 * - `lead_viewers`: which browsers (the player's viewer id) belong to which lead, so a journey holds
 *   every session of that browser, before and after the capture. A shared browser may belong to
 *   several leads.
 * - `lead_activities`: what happened to a lead besides watching (form submitted, note, status
 *   change, outcome, booking, route choice), for its history and journey.
 * - `outcomes`: the ledger. Amounts are integers in minor units with an ISO 4217 currency;
 *   attribution (first- and last-touch video) is stored when the entry is written; `external_id`
 *   makes writes idempotent per workspace; a refund names what it refunds.
 * - videos get their lead form setting, daily stats a count of leads captured, workspaces a sealed
 *   Stripe signing secret, and sessions an index by viewer for journeys.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table leads (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    email text not null,
    first_name text,
    last_name text,
    name text,
    phone text,
    status text not null default 'new' check (status in ('new', 'engaged', 'qualified', 'customer', 'lost')),
    tags text[] not null default '{}',
    custom_fields jsonb not null default '{}',
    source text not null check (source in ('video', 'api', 'booking', 'import', 'stripe')),
    source_video_id uuid references videos(id) on delete set null,
    engagement_points double precision not null default 0,
    engagement_at timestamptz(3),
    engagement_rank double precision not null default 0,
    last_activity_at timestamptz(3) not null,
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null
  )`,
  'create unique index leads_workspace_email_idx on leads (workspace_id, lower(email))',
  'create index leads_engagement_idx on leads (workspace_id, engagement_rank desc, id desc)',
  'create index leads_created_idx on leads (workspace_id, created_at, id)',
  'create index leads_tags_idx on leads using gin (tags)',
  `create table lead_viewers (
    workspace_id uuid not null references workspaces(id) on delete cascade,
    viewer_id text not null,
    lead_id uuid not null references leads(id) on delete cascade,
    linked_at timestamptz(3) not null,
    primary key (workspace_id, viewer_id, lead_id)
  )`,
  'create index lead_viewers_lead_idx on lead_viewers (lead_id)',
  `create table lead_activities (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    lead_id uuid not null references leads(id) on delete cascade,
    kind text not null,
    video_id uuid references videos(id) on delete set null,
    data jsonb not null default '{}',
    occurred_at timestamptz(3) not null
  )`,
  'create index lead_activities_lead_idx on lead_activities (lead_id, occurred_at desc, id desc)',
  `create table outcomes (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    kind text not null check (kind in ('purchase', 'booked_call', 'refund')),
    status text not null check (status in ('pending', 'succeeded', 'failed', 'canceled')),
    amount bigint not null check (amount >= 0),
    currency char(3) not null,
    lead_id uuid references leads(id) on delete set null,
    video_id uuid references videos(id) on delete set null,
    first_touch_video_id uuid references videos(id) on delete set null,
    last_touch_video_id uuid references videos(id) on delete set null,
    refunded_outcome_id uuid references outcomes(id) on delete restrict,
    external_id text,
    source text not null check (source in ('api', 'stripe', 'booking')),
    description text,
    occurred_at timestamptz(3) not null,
    created_at timestamptz(3) not null
  )`,
  'create unique index outcomes_external_idx on outcomes (workspace_id, external_id) where external_id is not null',
  'create index outcomes_occurred_idx on outcomes (workspace_id, occurred_at desc, id desc)',
  'create index outcomes_lead_idx on outcomes (lead_id) where lead_id is not null',
  'create index outcomes_refunds_idx on outcomes (refunded_outcome_id) where refunded_outcome_id is not null',
  'alter table videos add column lead_form jsonb',
  'alter table video_daily_stats add column leads integer not null default 0',
  'alter table workspaces add column stripe_signing_secret text',
  'create index viewing_sessions_viewer_idx on viewing_sessions (workspace_id, viewer_id, started_at)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists viewing_sessions_viewer_idx`.execute(db);
  await sql`alter table workspaces drop column if exists stripe_signing_secret`.execute(db);
  await sql`alter table video_daily_stats drop column if exists leads`.execute(db);
  await sql`alter table videos drop column if exists lead_form`.execute(db);
  for (const table of ['outcomes', 'lead_activities', 'lead_viewers', 'leads']) await sql.raw(`drop table if exists ${table}`).execute(db);
}
