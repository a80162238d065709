/**
 * Settings shared by every process of a deployment. The first is the signing secret, generated here
 * when CUEPOINT_SECRET is not set, so API processes on different machines sign and accept the same
 * cursors and upload URLs.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table service_settings (name text primary key, value text not null)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists service_settings`.execute(db);
}
