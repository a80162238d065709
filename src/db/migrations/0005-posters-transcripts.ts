/**
 * What ffmpeg adds to a processed video: whether it has a poster image, and its transcript (for now
 * the text subtitle track embedded in the file; later sources add their own `source` value). One
 * transcript per video, replaced whole when a better one arrives.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table videos add column has_poster boolean not null default false`.execute(db);
  await sql`create table video_transcripts (
    video_id uuid primary key references videos(id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    source text not null check (source in ('embedded_subtitles')),
    language text,
    segments jsonb not null,
    full_text text not null,
    created_at timestamptz(3) not null,
    updated_at timestamptz(3) not null
  )`.execute(db);
  await sql`create index video_transcripts_workspace on video_transcripts (workspace_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists video_transcripts`.execute(db);
  await sql`alter table videos drop column if exists has_poster`.execute(db);
}
