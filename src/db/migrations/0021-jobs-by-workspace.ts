/**
 * Unfinished jobs by workspace and kind. Calendar feeds (issue 14) keep one pending fetch job each and
 * look it up by workspace: to queue a refresh without making a second one, and to show when each
 * feed is fetched next. Without this index each lookup would read every pending job of the kind,
 * in every workspace.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index jobs_pending_by_workspace_idx on jobs (workspace_id, kind) where status in ('queued', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists jobs_pending_by_workspace_idx`.execute(db);
}
