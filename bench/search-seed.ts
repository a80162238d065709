/**
 * Seeds a workspace for the search benchmark (bench/search-reads.ts): a library of videos, each with
 * a transcript of 1,000 words in 100 timed segments, a few hundred leads with notes and a few routes,
 * in bulk SQL, since ten thousand set_video_transcript calls would take most of an hour here.
 *
 * 1. A vocabulary (search-vocabulary.ts): 45% function words, the rest drawn by Zipf's law over
 *    20,000 ranks (rank r with probability ln((r+1)/r) / ln(20,001), so `floor(exp(u · ln 20,001))`
 *    of a uniform u), from a hash of the token's number (hashint8extended), so a size always gets
 *    the same text.
 * 2. Videos (ready, 400 s, titles and descriptions from the same draw, two tags each, 2% archived)
 *    and their transcripts (source captions, language en): the segments in a staging table first,
 *    then the planted words appended to known segments, then video_transcripts (the segments as JSON
 *    and the full text, as saveTranscript stores them) and transcript_segments (search_config from
 *    transcript_search_config('en'); the words are PostgreSQL's generated column) from it.
 * 3. Leads (one with a known address) with a note on every other one, and routes built through the
 *    service's API (create_route, add_route_branches), one named with the selective word.
 * 4. Where each planted word is, for the answers to be checked against.
 */

import { sql } from 'kysely';
import { createWorkspace } from '../src/create-workspace.ts';
import type { ServiceCall } from './route-seed.ts';
import {
  CONTENT_WORDS,
  EXCLUDED_VIDEOS,
  EXCLUDED_WORD,
  FUNCTION_SHARE,
  FUNCTION_WORDS,
  PHRASE,
  PHRASE_VIDEOS,
  PLANTED_EMAIL,
  PLANTED_TITLE,
  PLANTED_VIDEOS,
  SELECTIVE_WORD,
  SYLLABLE_CONSONANTS,
  SYLLABLE_VOWELS,
  TAGS,
  VOCABULARY_SIZE,
} from './search-vocabulary.ts';
import type { BenchPool } from './throwaway-database.ts';

export const SEGMENTS_PER_VIDEO = 100;
export const WORDS_PER_SEGMENT = 10;
export const SECONDS_PER_SEGMENT = 4;
const DESCRIPTION_WORDS = 24;
const TITLE_WORDS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A segment the seed wrote a planted word into: the video and when the segment starts. */
export interface PlantedMoment {
  videoId: string;
  startSeconds: number;
}

export interface SeededSearchWorkspace {
  workspaceId: string;
  apiKey: string;
  videos: number;
  rows: { videos: number; segments: number; leads: number; notes: number; routes: number };
  planted: {
    /** The selective word's segments in unarchived videos; `archived` is the one in an archived video. */
    selective: PlantedMoment[];
    archived: PlantedMoment;
    /** The selective segments that also say the excluded word. */
    excluded: PlantedMoment[];
    phrase: PlantedMoment[];
    /** Segments saying the phrase's words apart, which a phrase query must not find. */
    apart: PlantedMoment[];
    titleVideoId: string;
    leadId: string;
    routeId: string;
  };
  seconds: { library: number; leads: number; routes: number };
}

export async function seedSearchWorkspace(
  database: BenchPool,
  call: ServiceCall,
  videos: number,
  leads: number,
  now: Date,
  log: (line: string) => void,
): Promise<SeededSearchWorkspace> {
  if (videos < 100) throw new Error('the search benchmark needs at least 100 videos per workspace');
  const db = database.db;
  const { workspace, apiKey } = await createWorkspace(db, { name: `Search benchmark, ${videos} videos`, plan: 'business', now });
  const tag = workspace.id.replaceAll('-', '').slice(0, 12);
  const vocabulary = sql.table(`bench_search_vocabulary_${tag}`);
  const library = sql.table(`bench_search_videos_${tag}`);
  const segments = sql.table(`bench_search_segments_${tag}`);
  const seed = videos % 100_000;
  const createdAt = new Date(now.getTime() - 30 * DAY_MS);

  // Planted segments by video ordinal (1…videos): spread through the library, at different times, each
  // kind in its own residue of the ordinal modulo 4, so no two plants share a video.
  const spread = (j: number, count: number, residue: number) => 1 + residue + 4 * Math.floor(((j + 0.5) * Math.floor(videos / 4)) / count);
  const selectiveAt = Array.from({ length: PLANTED_VIDEOS + 1 }, (_, j) => ({
    video: spread(j, PLANTED_VIDEOS + 1, 1),
    position: (j * 37 + 11) % SEGMENTS_PER_VIDEO,
  }));
  const archivedAt = selectiveAt[PLANTED_VIDEOS] as { video: number; position: number };
  const phraseAt = Array.from({ length: PHRASE_VIDEOS }, (_, j) => ({ video: spread(j, PHRASE_VIDEOS, 2), position: (j * 23 + 40) % 100 }));
  const apartAt = Array.from({ length: PHRASE_VIDEOS }, (_, j) => ({ video: spread(j, PHRASE_VIDEOS, 3), position: (j * 29 + 7) % 100 }));
  const titleAt = spread(0, 1, 0);
  const planted = [...selectiveAt, ...phraseAt, ...apartAt, { video: titleAt, position: 0 }];
  if (new Set(planted.map((at) => at.video)).size !== planted.length) throw new Error(`${videos} videos: two plants fell in one video`);
  const plants = [
    ...selectiveAt.map((at, j) => ({
      ...at,
      words: j < EXCLUDED_VIDEOS ? `we flew to ${SELECTIVE_WORD} to see the ${EXCLUDED_WORD}` : `the office in ${SELECTIVE_WORD} opened`,
    })),
    ...phraseAt.map((at) => ({ ...at, words: `in the ${PHRASE.join(' ')} we agreed` })),
    ...apartAt.map((at) => ({ ...at, words: `for the ${PHRASE[1]} we ${PHRASE[2]} every ${PHRASE[0]} number` })),
  ];

  const u = (key: string, k: number) => `((hashint8extended(${key}, ${seed * 100 + k}) & 4294967295)::float8 / 4294967296.0)`;
  // A token's rank: negative for a function word, else a Zipf draw over the vocabulary.
  const rankOf = (key: string) =>
    `case when ${u(key, 1)} < ${FUNCTION_SHARE} then -1 - floor(${u(key, 2)} * ${FUNCTION_WORDS.length})::int
      else least(${VOCABULARY_SIZE}, floor(exp(${u(key, 3)} * ln(${VOCABULARY_SIZE + 1})))::int) end`;
  // Content words only, from the first `most` ranks: titles and notes.
  const contentRankOf = (most: number) => (key: string) => `least(${most}, floor(exp(${u(key, 4)} * ln(${most + 1})))::int)`;
  // `words` tokens drawn for the bigint `key`, joined by spaces.
  const draw = (key: string, words: number, rank: (key: string) => string) =>
    sql`(select string_agg(w.word, ' ' order by t.k) from generate_series(0, ${sql.lit(words - 1)}) as t(k)
          join ${vocabulary} w on w.rank = ${sql.raw(rank(`(${key}) * 100 + t.k`))})`;

  const libraryBegan = performance.now();
  try {
    const syllables = [...SYLLABLE_CONSONANTS].flatMap((c) => [...SYLLABLE_VOWELS].map((v) => c + v));
    await sql`create unlogged table ${vocabulary} (rank integer primary key, word text not null)`.execute(db);
    await sql`insert into ${vocabulary} (rank, word)
      select -t.n::integer, t.word from unnest(${[...FUNCTION_WORDS]}::text[]) with ordinality as t(word, n)
      union all
      select t.n::integer, t.word from unnest(${[...CONTENT_WORDS]}::text[]) with ordinality as t(word, n)
      union all
      select r, s[1 + r % ${syllables.length}] || s[1 + (r / ${syllables.length}) % ${syllables.length}]
        || s[1 + (r / ${syllables.length ** 2}) % ${syllables.length}]
      from generate_series(${CONTENT_WORDS.length + 1}::integer, ${VOCABULARY_SIZE}::integer) as r, (select ${syllables}::text[] as s) syllables`.execute(
      db,
    );
    await sql`analyze ${vocabulary}`.execute(db);

    await sql`create unlogged table ${library} as
      select i, gen_random_uuid() as id,
        case when i = ${titleAt} then ${PLANTED_TITLE} else initcap(${draw('i::bigint', TITLE_WORDS, contentRankOf(2000))}) || ' (' || i || ')' end as title,
        ${draw('i::bigint + 1000000000', DESCRIPTION_WORDS, rankOf)} as description,
        array[(${[...TAGS]}::text[])[1 + i % ${TAGS.length}], (${[...TAGS]}::text[])[1 + (i / ${TAGS.length}) % ${TAGS.length}]] as tags,
        (i = ${archivedAt.video} or (i % 50 = 25 and i <> all(${planted.map((at) => at.video)}::int[]))) as archived
      from generate_series(1, ${videos}::integer) as i`.execute(db);
    await sql`alter table ${library} add primary key (i)`.execute(db);

    await sql`create unlogged table ${segments} as
      select v.i, p.position, ${draw(`v.i::bigint * ${SEGMENTS_PER_VIDEO} + p.position`, WORDS_PER_SEGMENT, rankOf)} as text
      from generate_series(1, ${videos}::integer) as v(i), generate_series(0, ${SEGMENTS_PER_VIDEO - 1}::integer) as p(position)`.execute(
      db,
    );
    await sql`update ${segments} s set text = s.text || ' ' || p.words
      from unnest(${plants.map((p) => p.video)}::int[], ${plants.map((p) => p.position)}::int[], ${plants.map((p) => p.words)}::text[])
        as p(i, position, words)
      where s.i = p.i and s.position = p.position`.execute(db);
    await sql`alter table ${segments} add primary key (i, position)`.execute(db);

    await sql`insert into videos (id, workspace_id, folder_id, title, description, tags, status, archived, source_url, file_name,
        file_size, duration_seconds, width, height, failure_reason, created_at, updated_at)
      select id, ${workspace.id}, null, title, description, tags, 'ready', archived, null, 'talk-' || i || '.mp4',
        40000000, ${SEGMENTS_PER_VIDEO * SECONDS_PER_SEGMENT}, 1280, 720, null,
        ${createdAt}::timestamptz + i * interval '1 minute', ${createdAt}::timestamptz + i * interval '1 minute'
      from ${library}`.execute(db);
    await sql`insert into video_transcripts (video_id, workspace_id, source, language, search_config, segments, full_text, created_at, updated_at)
      select v.id, ${workspace.id}, 'captions', 'en', transcript_search_config('en'),
        jsonb_agg(jsonb_build_object('start_seconds', s.position * ${SECONDS_PER_SEGMENT}, 'end_seconds', (s.position + 1) * ${SECONDS_PER_SEGMENT},
          'text', s.text) order by s.position),
        string_agg(s.text, ' ' order by s.position), ${now}, ${now}
      from ${library} v join ${segments} s on s.i = v.i
      group by v.id`.execute(db);
    await sql`insert into transcript_segments (video_id, workspace_id, position, start_seconds, end_seconds, text, search_config)
      select v.id, ${workspace.id}, s.position, s.position * ${SECONDS_PER_SEGMENT}, (s.position + 1) * ${SECONDS_PER_SEGMENT}, s.text,
        transcript_search_config('en')
      from ${library} v join ${segments} s on s.i = v.i`.execute(db);
    const libraryIds = new Map(
      (await sql<{ i: number; id: string }>`select i, id from ${library}`.execute(db)).rows.map((row) => [row.i, row.id]),
    );
    const libraryTime = (performance.now() - libraryBegan) / 1000;
    const moment = (at: { video: number; position: number }): PlantedMoment => ({
      videoId: libraryIds.get(at.video) as string,
      startSeconds: at.position * SECONDS_PER_SEGMENT,
    });
    log(`  ${videos} videos, ${videos * SEGMENTS_PER_VIDEO} transcript segments written in ${libraryTime.toFixed(1)} s`);

    // ── leads and their notes ──────────────────────────────────────────────────────────────────────
    const leadsBegan = performance.now();
    const firstNames = ['Ada', 'Bruno', 'Chloe', 'Dmitri', 'Esther', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemal', 'Lena'];
    const lastNames = [
      'Andersen',
      'Baptiste',
      'Castillo',
      'Dubois',
      'Eriksen',
      'Fischer',
      'Garcia',
      'Haddad',
      'Ivanova',
      'Jensen',
      'Kowalski',
    ];
    const plantedLead = Math.floor(leads / 2);
    await sql`insert into leads (id, workspace_id, email, first_name, last_name, name, source, engagement_points, engagement_rank,
        last_activity_at, created_at, updated_at)
      select gen_random_uuid(), ${workspace.id},
        case when k = ${plantedLead} then ${PLANTED_EMAIL}
          else lower(f.names[1 + k % ${firstNames.length}] || '.' || l.names[1 + (k / ${firstNames.length}) % ${lastNames.length}]) || k || '@company' || (k % 37) || '.example' end,
        case when k = ${plantedLead} then 'Maren' else f.names[1 + k % ${firstNames.length}] end,
        case when k = ${plantedLead} then 'Okafor' else l.names[1 + (k / ${firstNames.length}) % ${lastNames.length}] end,
        null, 'api', k % 17, k % 17, ${now}, ${createdAt}, ${createdAt}
      from generate_series(1, ${leads}::integer) as k, (select ${firstNames}::text[] as names) f, (select ${lastNames}::text[] as names) l`.execute(
      db,
    );
    await sql`insert into lead_activities (id, workspace_id, lead_id, kind, video_id, data, occurred_at)
      select gen_random_uuid(), ${workspace.id}, l.id, 'note', null,
        jsonb_build_object('body', 'Asked about the ' || ${draw('hashtext(l.id::text)::bigint + 2000000000', 2, contentRankOf(200))}
          || ' and wants a call next ' || (array['week', 'month', 'quarter'])[1 + abs(hashtext(l.email)) % 3] || '.', 'author', 'bench'),
        ${now}
      from leads l where l.workspace_id = ${workspace.id} and abs(hashtext(l.email)) % 2 = 0`.execute(db);
    const leadId = (
      await sql<{ id: string }>`select id from leads where workspace_id = ${workspace.id} and email = ${PLANTED_EMAIL}`.execute(db)
    ).rows[0]?.id;
    if (!leadId) throw new Error('the planted lead was not written');
    const leadsTime = (performance.now() - leadsBegan) / 1000;

    // ── routes, through the API ────────────────────────────────────────────────────────────────────
    const routesBegan = performance.now();
    const video = (i: number) => libraryIds.get(i) as string;
    const routeDefinitions = [
      {
        name: `${SELECTIVE_WORD[0]?.toUpperCase()}${SELECTIVE_WORD.slice(1)} office tour`,
        question: 'Where next?',
        choices: ['The harbour', 'The old town'],
      },
      { name: 'Which plan fits you?', question: 'What brings you here?', choices: ['Pricing', 'A demo'] },
      { name: 'Support triage', question: 'What went wrong?', choices: ['Billing', 'Playback'] },
      { name: 'Partner program', question: 'Are you an agency?', choices: ['Yes', 'Not yet'] },
    ];
    let routeId = '';
    for (const [n, route] of routeDefinitions.entries()) {
      const created = (await call(apiKey, 'POST', '/v1/routes', { entry_video: video(2 + n * 3), name: route.name })) as {
        route_id: string;
      };
      await call(apiKey, 'POST', `/v1/routes/${created.route_id}/branches`, {
        question: route.question,
        branches: route.choices.map((label, c) => ({ label, to_video: video(3 + n * 3 + c) })),
      });
      if (n === 0) routeId = created.route_id;
    }
    const routesTime = (performance.now() - routesBegan) / 1000;

    const counts = (
      await sql<{ videos: number; segments: number; leads: number; notes: number; routes: number }>`
        select (select count(*)::int from videos where workspace_id = ${workspace.id}) as videos,
          (select count(*)::int from transcript_segments where workspace_id = ${workspace.id}) as segments,
          (select count(*)::int from leads where workspace_id = ${workspace.id}) as leads,
          (select count(*)::int from lead_activities where workspace_id = ${workspace.id} and kind = 'note') as notes,
          (select count(*)::int from routes where workspace_id = ${workspace.id}) as routes`.execute(db)
    ).rows[0] as SeededSearchWorkspace['rows'];
    return {
      workspaceId: workspace.id,
      apiKey,
      videos,
      rows: counts,
      planted: {
        selective: selectiveAt.slice(0, PLANTED_VIDEOS).map(moment),
        archived: moment(archivedAt),
        excluded: selectiveAt.slice(0, EXCLUDED_VIDEOS).map(moment),
        phrase: phraseAt.map(moment),
        apart: apartAt.map(moment),
        titleVideoId: libraryIds.get(titleAt) as string,
        leadId,
        routeId,
      },
      seconds: { library: libraryTime, leads: leadsTime, routes: routesTime },
    };
  } finally {
    for (const table of [vocabulary, library, segments]) await sql`drop table if exists ${table}`.execute(db);
  }
}
