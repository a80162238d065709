/**
 * Scheduling (issue 14, docs/scheduling.md).
 *
 * - `event_types`: a kind of call a viewer can book, with its rules (duration, slot interval,
 *   buffers, minimum notice, horizon, daily cap), its weekly hours and date overrides (JSON, checked
 *   by domains/scheduling/availability/rules-problems.ts before they are written) in an IANA time zone, an
 *   optional value for the ledger (minor units and currency), where the call happens, and an active
 *   flag. Inactive types offer no slots; they are never deleted while bookings point at them.
 * - `bookings`: one call booked at one instant. `buffer_*_minutes` keep the buffers of the event type
 *   as they were when it was booked, so changing a type's buffers later does not move the time kept
 *   free around calls already made. Cancelling keeps the row (status `canceled`); rescheduling moves
 *   `starts_at`/`ends_at` and keeps the id, so a CRM that stored it stays right. Double bookings are
 *   refused by a serialized check: a booking write first locks its workspace's row (`for no key
 *   update`, which foreign-key checks do not wait on), then judges the slot with every rule, then
 *   writes. The partial unique index on confirmed starts is a second, cheaper guard of the same promise.
 *   `cancel_token_hash` is the SHA-256 of the invitee's cancel link secret, shown once in that link.
 * - `calendar_feeds`: ICS URLs whose events block slots, per workspace. The URL is sealed (it often
 *   embeds a private token); `url_display` is what answers show. The worker fetches each feed in the
 *   background and keeps the outcome (`last_fetched_at`, `last_success_at`, `last_error`).
 * - `calendar_busy_times`: the busy intervals of a feed's last successful fetch, recurring events
 *   expanded, replaced as a whole on each fetch.
 * - `route_choices` gains the target `booking` (a choice that opens an event type's booking page).
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table event_types (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    name text not null,
    duration_minutes integer not null,
    slot_interval_minutes integer not null,
    buffer_before_minutes integer not null default 0,
    buffer_after_minutes integer not null default 0,
    minimum_notice_minutes integer not null default 0,
    horizon_days integer,
    daily_cap integer,
    value_amount bigint check (value_amount >= 0),
    value_currency text,
    location text,
    time_zone text not null,
    weekly_hours jsonb not null,
    date_overrides jsonb not null default '[]',
    active boolean not null default true,
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null,
    check ((value_amount is null) = (value_currency is null))
  )`,
  'create index event_types_created_idx on event_types (workspace_id, created_at desc, id desc)',
  `create table bookings (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    event_type_id uuid not null references event_types(id) on delete restrict,
    status text not null default 'confirmed' check (status in ('confirmed', 'canceled')),
    starts_at timestamptz(3) not null,
    ends_at timestamptz(3) not null,
    buffer_before_minutes integer not null default 0,
    buffer_after_minutes integer not null default 0,
    invitee_email text not null,
    invitee_name text,
    invitee_phone text,
    invitee_timezone text,
    lead_id uuid references leads(id) on delete set null,
    outcome_id uuid references outcomes(id) on delete set null,
    video_id uuid references videos(id) on delete set null,
    route_id uuid references routes(id) on delete set null,
    cancel_token_hash text not null,
    canceled_at timestamptz(3),
    canceled_by text check (canceled_by in ('workspace', 'invitee')),
    cancel_reason text,
    rescheduled_at timestamptz(3),
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null,
    check (ends_at > starts_at),
    check ((status = 'canceled') = (canceled_at is not null))
  )`,
  `create unique index bookings_confirmed_start_idx on bookings (workspace_id, starts_at) where status = 'confirmed'`,
  'create index bookings_start_idx on bookings (workspace_id, starts_at, id)',
  'create index bookings_event_type_idx on bookings (event_type_id, starts_at)',
  'create index bookings_lead_idx on bookings (lead_id) where lead_id is not null',
  `create table calendar_feeds (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    name text not null,
    url_sealed text not null,
    url_display text not null,
    last_fetched_at timestamptz(3),
    last_success_at timestamptz(3),
    last_error text,
    busy_count integer not null default 0,
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null
  )`,
  'create index calendar_feeds_created_idx on calendar_feeds (workspace_id, created_at desc, id desc)',
  `create table calendar_busy_times (
    feed_id uuid not null references calendar_feeds(id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    starts_at timestamptz(3) not null,
    ends_at timestamptz(3) not null,
    summary text,
    check (ends_at > starts_at)
  )`,
  'create index calendar_busy_times_idx on calendar_busy_times (workspace_id, starts_at)',
  'create index calendar_busy_times_feed_idx on calendar_busy_times (feed_id)',
  'alter table route_choices add column event_type_id uuid references event_types(id) on delete restrict',
  'alter table route_choices drop constraint route_choices_target_check',
  `alter table route_choices add constraint route_choices_target_check check (target in ('step', 'url', 'lead_form', 'booking', 'end'))`,
  `alter table route_choices add constraint route_choices_booking_check check ((target = 'booking') = (event_type_id is not null))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`delete from route_choices where target = 'booking'`).execute(db);
  await sql.raw('alter table route_choices drop constraint route_choices_booking_check').execute(db);
  await sql.raw('alter table route_choices drop constraint route_choices_target_check').execute(db);
  await sql
    .raw(`alter table route_choices add constraint route_choices_target_check check (target in ('step', 'url', 'lead_form', 'end'))`)
    .execute(db);
  await sql.raw('alter table route_choices drop column event_type_id').execute(db);
  for (const table of ['calendar_busy_times', 'calendar_feeds', 'bookings', 'event_types']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
}
