/**
 * Webhooks: endpoints (their signing secrets sealed, since signing needs them back), and deliveries,
 * one row per event and endpoint, which are at once the delivery log the API lists and the work
 * queue the sender leases from. `events.dispatched_at` marks the outbox rows fan-out has turned into
 * deliveries; events recorded before webhooks existed count as dispatched, as no endpoint wanted them.
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table webhook_endpoints (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    name text not null,
    url text not null,
    events text[] not null,
    active boolean not null default true,
    disabled_reason text,
    secret_sealed text not null,
    previous_secret_sealed text,
    previous_secret_expires_at timestamptz(3),
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null
  )`,
  'create index webhook_endpoints_workspace_idx on webhook_endpoints (workspace_id, created_at desc, id desc)',
  `create table webhook_deliveries (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
    event_id uuid not null,
    event_type text not null,
    payload text not null,
    status text not null check (status in ('pending', 'succeeded', 'failed', 'exhausted')),
    attempts integer not null default 0,
    max_attempts integer not null check (max_attempts > 0),
    next_attempt_at timestamptz(3),
    lease_until timestamptz(3),
    locked_by text,
    last_attempt_at timestamptz(3),
    last_status_code integer,
    last_error text,
    last_failure_reason text,
    last_duration_ms integer,
    last_response_excerpt text,
    delivered_at timestamptz(3),
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null,
    unique (endpoint_id, event_id)
  )`,
  // The sender only ever searches unfinished deliveries that are due.
  `create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status in ('pending', 'failed')`,
  'create index webhook_deliveries_log_idx on webhook_deliveries (endpoint_id, created_at desc, id desc)',
  'alter table events add column dispatched_at timestamptz(3)',
  'update events set dispatched_at = created_at',
  'create index events_undispatched_idx on events (sequence) where dispatched_at is null',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhook_endpoints`.execute(db);
  await sql`alter table events drop column if exists dispatched_at`.execute(db);
}
