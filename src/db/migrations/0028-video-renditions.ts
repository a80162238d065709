/**
 * A video's HLS renditions (issue 18): one row per rung of its ladder, made by processing (the
 * lowest, before the video is ready) and by one `video.rendition` job each (the others). A row's id
 * names its files in the media store (`hls/<id>/index.m3u8`, `hls/<id>/seg-00000.ts`): a rendition is
 * made once and its files never change, so their URLs can be cached for good. `bandwidth` is the
 * peak bit rate of a segment and `average_bandwidth` the whole stream's, as the master playlist
 * declares them (RFC 8216 §4.3.4.2).
 */
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table video_renditions (
    id uuid primary key,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    video_id uuid not null references videos(id) on delete cascade,
    name text not null,
    width integer not null,
    height integer not null,
    video_kbps integer not null,
    audio_kbps integer,
    state text not null check (state in ('queued', 'processing', 'ready', 'failed')),
    codecs text,
    bandwidth integer,
    average_bandwidth integer,
    segments integer,
    bytes bigint,
    failure_reason text,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    unique (video_id, name)
  )`,
  'create index video_renditions_workspace_video on video_renditions (workspace_id, video_id)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists video_renditions`.execute(db);
}
