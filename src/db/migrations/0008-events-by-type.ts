/**
 * list_changes asks the events outbox which videos became ready or failed in the last days: an index
 * by workspace, type and time answers that without reading the workspace's whole event history.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_workspace_type_time_idx on events (workspace_id, type, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists events_workspace_type_time_idx`.execute(db);
}
