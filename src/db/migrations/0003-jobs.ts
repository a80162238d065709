/**
 * Background jobs (DESIGN §2): rows with a status, a time to run, and a lease that a live worker keeps
 * renewing. A worker killed mid-job stops renewing; once the lease lapses another worker takes the
 * job up again, and the attempt number fences off any late answer from the first.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table jobs (
    id uuid primary key,
    kind text not null,
    workspace_id uuid references workspaces(id) on delete cascade,
    payload jsonb not null,
    status text not null check (status in ('queued', 'running', 'succeeded', 'failed')),
    run_at timestamptz(3) not null,
    attempts integer not null default 0,
    max_attempts integer not null check (max_attempts > 0),
    lease_until timestamptz(3),
    locked_by text,
    last_error text,
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null,
    finished_at timestamptz(3)
  )`.execute(db);
  // Only unfinished jobs are ever searched for work.
  await sql`create index jobs_pending_idx on jobs (kind, run_at) where status in ('queued', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists jobs`.execute(db);
}
