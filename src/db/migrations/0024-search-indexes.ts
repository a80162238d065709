/**
 * Indexes for `search` (issue 16, docs/transcripts-and-search.md): a video's words (title,
 * description, tags) in the `english` configuration (stemmed: "pricing" finds "price") and the
 * `simple` one (every word as written, names too), through one immutable function so the index and
 * the query compute the same text; and trigrams of video titles and lead names (all of a lead's
 * name fields, lowercased, by lead_search_name), for names typed with a typo (pg_trgm's word
 * similarity, migration 0023).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // array_to_string is only stable in general (an element type's output could change); for text[] it is not.
  await sql`create function video_search_text(title text, description text, tags text[]) returns text
    language sql immutable parallel safe
    return title || ' ' || description || ' ' || array_to_string(tags, ' ')`.execute(db);
  await sql`create index videos_words_english on videos
    using gin (to_tsvector('english'::regconfig, video_search_text(title, description, tags)))`.execute(db);
  await sql`create index videos_words_simple on videos
    using gin (to_tsvector('simple'::regconfig, video_search_text(title, description, tags)))`.execute(db);
  await sql`create index videos_title_trigrams on videos using gin (lower(title) gin_trgm_ops)`.execute(db);
  await sql`create function lead_search_name(name text, first_name text, last_name text) returns text
    language sql immutable parallel safe
    return lower(coalesce(name, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`.execute(db);
  await sql`create index leads_name_trigrams on leads using gin (lead_search_name(name, first_name, last_name) gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['leads_name_trigrams', 'videos_title_trigrams', 'videos_words_simple', 'videos_words_english']) {
    await sql.raw(`drop index ${index}`).execute(db);
  }
  await sql`drop function video_search_text(text, text, text[])`.execute(db);
  await sql`drop function lead_search_name(text, text, text)`.execute(db);
}
