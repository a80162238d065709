/**
 * When each credential last authenticated a request, shown by list_api_keys so a workspace can tell
 * a key in use from a forgotten one before revoking it. Written at most once a minute per credential.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table credentials add column last_used_at timestamptz(3)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table credentials drop column if exists last_used_at`.execute(db);
}
