/**
 * The text search configurations a workspace's transcripts are in, found without reading its
 * transcripts (issue 16, docs/transcripts-and-search.md). search_transcripts parses the query once
 * per configuration the workspace uses; finding those with `select distinct` read every transcript
 * row of the workspace, a cost that grew with the library on every search. With this index each of
 * PostgreSQL's configurations is one probe (transcript-moments.queries.ts), whatever the library's
 * size.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index video_transcripts_search_configs on video_transcripts (workspace_id, search_config)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists video_transcripts_search_configs`.execute(db);
}
