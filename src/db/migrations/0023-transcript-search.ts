/**
 * Transcripts from every source, searchable by moment (issue 16, docs/transcripts-and-search.md).
 *
 * - `video_transcripts.source` names where the words came from: `captions` (uploaded with
 *   set_video_transcript), `embedded` (the subtitle track inside the uploaded file; was
 *   `embedded_subtitles`) or `speech_to_text` (recognised from the audio).
 * - `transcript_segments`: each timed segment of a transcript as its own row, replaced with the
 *   transcript, with its words as a `tsvector` made in the transcript language's text search
 *   configuration (`search_config`: english, french, … or simple), kept by PostgreSQL itself (a
 *   generated column) and indexed (GIN), so search_transcripts finds the moments that say something
 *   without reading every transcript.
 * - `transcript_search_config(language)`: the configuration for a language tag (its primary subtag;
 *   anything unknown is `simple`), the one place that mapping lives; writes call it, and
 *   `video_transcripts.search_config` keeps each transcript's, so a search knows which
 *   configurations to parse its words in.
 * - `pg_trgm`, for search's tolerance of misspelt names (trigram similarity); PGlite loads it too
 *   (db/pglite-start-params.ts).
 */
import { type Kysely, sql } from 'kysely';

/** BCP 47 primary language subtags → PostgreSQL's text search configurations; anything else is `simple`. */
const CONFIGS: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  // In public, where every search_path finds it: created in a schema of its own it would vanish with
  // that schema (tests give each file one) and be invisible to the others.
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  const { rows } = await sql<{
    schema: string;
  }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (rows[0] && rows[0].schema !== 'public') await sql`alter extension pg_trgm set schema public`.execute(db);
  await sql`alter table video_transcripts drop constraint video_transcripts_source_check`.execute(db);
  await sql`update video_transcripts set source = 'embedded' where source = 'embedded_subtitles'`.execute(db);
  await sql`alter table video_transcripts add constraint video_transcripts_source_check
    check (source in ('captions', 'embedded', 'speech_to_text'))`.execute(db);
  await sql`create table transcript_segments (
    video_id uuid not null references video_transcripts(video_id) on delete cascade,
    workspace_id uuid not null references workspaces(id) on delete cascade,
    position integer not null,
    start_seconds double precision not null,
    end_seconds double precision not null,
    text text not null,
    search_config regconfig not null,
    words tsvector generated always as (to_tsvector(search_config, text)) stored,
    primary key (video_id, position)
  )`.execute(db);
  await sql`create index transcript_segments_words on transcript_segments using gin (words)`.execute(db);
  await sql`create index transcript_segments_by_workspace on transcript_segments (workspace_id)`.execute(db);
  const cases = sql.join(
    Object.entries(CONFIGS).map(([tag, config]) => sql`when ${sql.lit(tag)} then ${sql.lit(config)}::regconfig`),
    sql` `,
  );
  await sql`create function transcript_search_config(language text) returns regconfig language sql immutable
    return case lower(split_part(coalesce(language, ''), '-', 1)) ${cases} else 'simple'::regconfig end`.execute(db);
  await sql`alter table video_transcripts add column search_config regconfig`.execute(db);
  await sql`update video_transcripts set search_config = transcript_search_config(language)`.execute(db);
  await sql`alter table video_transcripts alter column search_config set not null`.execute(db);
  await sql`insert into transcript_segments (video_id, workspace_id, position, start_seconds, end_seconds, text, search_config)
    select t.video_id, t.workspace_id, (s.position - 1)::integer, (s.segment->>'start_seconds')::double precision,
      (s.segment->>'end_seconds')::double precision, s.segment->>'text', t.search_config
    from video_transcripts t
    cross join lateral jsonb_array_elements(t.segments) with ordinality as s(segment, position)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table transcript_segments`.execute(db);
  await sql`alter table video_transcripts drop column search_config`.execute(db);
  await sql`drop function transcript_search_config(text)`.execute(db);
  await sql`alter table video_transcripts drop constraint video_transcripts_source_check`.execute(db);
  await sql`update video_transcripts set source = 'embedded_subtitles' where source = 'embedded'`.execute(db);
  await sql`alter table video_transcripts add constraint video_transcripts_source_check check (source in ('embedded_subtitles'))`.execute(
    db,
  );
}
