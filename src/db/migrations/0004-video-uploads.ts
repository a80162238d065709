/**
 * Direct uploads and what probing learns about a file. An upload row makes its one-time URL
 * single-use: of any number of concurrent PUTs, the one that moves it from `open` to `receiving`
 * wins; a failed transfer returns it to `open` so the client can retry until it expires.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table video_uploads (
    video_id uuid primary key references videos(id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    file_size bigint not null,
    state text not null check (state in ('open', 'receiving', 'done')),
    expires_at timestamptz(3) not null,
    created_at timestamptz(3) not null
  )`.execute(db);
  for (const column of ['media_type text', 'video_codec text', 'audio_codec text', 'bitrate bigint']) {
    await sql.raw(`alter table videos add column ${column}`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists video_uploads`.execute(db);
  for (const column of ['media_type', 'video_codec', 'audio_codec', 'bitrate']) {
    await sql.raw(`alter table videos drop column if exists ${column}`).execute(db);
  }
}
