/**
 * The search benchmark's answers checked against what was seeded (bench/search-seed.ts), before
 * anything is timed, so a fast wrong answer cannot pass for a fast one: the planted word's moments,
 * exactly, with and without archived videos; the exclusion and the phrase leaving out what they
 * should; each moment's transcript offset pointing at its words; a common word's hits each saying it
 * and scored as PostgreSQL scores that segment; the misspelt title and the lead's address found
 * first by `search`.
 */
import { sql } from 'kysely';
import type { PlantedMoment, SeededSearchWorkspace } from './search-seed.ts';
import { CONTENT_WORDS, EXCLUDED_WORD, MISSPELT_TITLE, PHRASE, PLANTED_EMAIL, SELECTIVE_WORD } from './search-vocabulary.ts';
import type { BenchPool } from './throwaway-database.ts';

/** The words a common query asks for: in most videos, and in a third of all segments. */
export const COMMON_WORD: string = CONTENT_WORDS[29];
export const VERY_COMMON_WORD: string = CONTENT_WORDS[0];

export const QUERIES = {
  selective: SELECTIVE_WORD,
  common: COMMON_WORD,
  veryCommon: VERY_COMMON_WORD,
  phrase: `"${PHRASE[0]} ${PHRASE[1]}"`,
  exclusion: `${SELECTIVE_WORD} -${EXCLUDED_WORD}`,
  misspeltTitle: MISSPELT_TITLE,
  leadEmail: PLANTED_EMAIL,
} as const;

export type QueryName = keyof typeof QUERIES;

export interface SpotCheck {
  videos: number;
  check: string;
  expected: string | number;
  actual: string | number;
  ok: boolean;
  /** The read answered 503 (the service's statement_timeout): nothing to compare, and a figure rather than a fault. */
  timedOut: boolean;
}

/** How a broad query's best moment compares with the best in the whole library (they differ when ranking is bounded). */
export interface BroadQueryQuality {
  videos: number;
  q: string;
  matchingSegments: number;
  bestInLibrary: number;
  bestReturned: number;
}

export type Get = (apiKey: string, path: string) => Promise<{ status: number; text: string }>;

interface Hit {
  video: { video_id: string; title: string };
  start_seconds: number;
  snippet: string;
  score: number;
  watch_url: string | null;
  transcript_offset: number;
}

interface SearchResult {
  kind: string;
  id: string;
  snippet: string;
  score: number;
  start_seconds: number | null;
}

export async function checkSearchAnswers(
  database: BenchPool,
  get: Get,
  workspace: SeededSearchWorkspace,
): Promise<{ checks: SpotCheck[]; quality: BroadQueryQuality[] }> {
  const checks: SpotCheck[] = [];
  const same = (check: string, expected: string | number, actual: string | number | undefined) =>
    checks.push({ videos: workspace.videos, check, expected, actual: actual ?? 'missing', ok: expected === actual, timedOut: false });
  const read = async <T>(path: string): Promise<T | undefined> => {
    const answer = await get(workspace.apiKey, path);
    if (answer.status === 200) return JSON.parse(answer.text) as T;
    if (answer.status !== 503) throw new Error(`GET ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    checks.push({ videos: workspace.videos, check: `GET ${path}`, expected: 200, actual: 503, ok: false, timedOut: true });
    return undefined;
  };
  const transcripts = (q: string, extra = '') =>
    read<{ hits: Hit[] }>(`/v1/transcripts/search?q=${encodeURIComponent(q)}${extra}`).then((answer) => answer?.hits);
  const search = (q: string) =>
    read<{ results: SearchResult[] }>(`/v1/search?q=${encodeURIComponent(q)}`).then((answer) => answer?.results);
  const keys = <T>(list: T[] | undefined, key: (item: T) => string) => list?.map(key) ?? ['timed out'];
  const moments = (list: PlantedMoment[]) => list.map((m) => `${m.videoId}@${m.startSeconds}`).sort();
  const sameSet = (check: string, expected: string[], actual: string[]) => same(check, expected.join(' '), [...actual].sort().join(' '));
  const { planted } = workspace;
  const unexcluded = planted.selective.filter((m) => !planted.excluded.some((e) => e.videoId === m.videoId));

  // ── search_transcripts ─────────────────────────────────────────────────────────────────────────
  const selective = (await transcripts(QUERIES.selective, '&limit=50')) ?? [];
  sameSet('search_transcripts selective word: the planted moments', moments(planted.selective), selective.map(hitKey));
  same(
    'search_transcripts selective word: every snippet marks it',
    selective.length,
    selective.filter((h) => h.snippet.includes(`**${SELECTIVE_WORD}**`)).length,
  );
  same(
    'search_transcripts selective word: every watch link starts at the moment',
    selective.length,
    selective.filter((h) => h.watch_url?.endsWith(`/watch/${h.video.video_id}?t=${Math.floor(h.start_seconds)}`)).length,
  );
  const withArchived = await transcripts(QUERIES.selective, '&limit=50&include_archived=true');
  sameSet(
    'search_transcripts selective word with archived videos',
    moments([...planted.selective, planted.archived]),
    keys(withArchived, hitKey),
  );
  sameSet('search_transcripts exclusion', moments(unexcluded), keys(await transcripts(QUERIES.exclusion, '&limit=50'), hitKey));
  sameSet(
    'search_transcripts phrase, not its words apart',
    moments(planted.phrase),
    keys(await transcripts(QUERIES.phrase, '&limit=50'), hitKey),
  );

  const first = selective[0];
  if (first) {
    const segment = (
      await sql<{ text: string }>`select text from transcript_segments
        where video_id = ${first.video.video_id} and start_seconds = ${first.start_seconds}`.execute(database.db)
    ).rows[0];
    const page = await read<{ text: string }>(
      `/v1/videos/${first.video.video_id}/transcript?offset=${first.transcript_offset}&max_chars=${segment?.text.length ?? 1}`,
    );
    same('search_transcripts: the transcript offset points at the moment’s words', segment?.text ?? 'missing', page?.text);
  }

  const quality: BroadQueryQuality[] = [];
  for (const word of [COMMON_WORD, VERY_COMMON_WORD]) {
    const hits = await transcripts(word);
    if (!hits) continue;
    same(`search_transcripts "${word}": a full page`, 10, hits.length);
    same(`search_transcripts "${word}": every snippet marks it`, hits.length, hits.filter((h) => h.snippet.includes(`**${word}**`)).length);
    same(
      `search_transcripts "${word}": best first`,
      'descending',
      hits.every((h, i) => i === 0 || (hits[i - 1] as Hit).score >= h.score) ? 'descending' : 'out of order',
    );
    // Each score is the one PostgreSQL gives that segment, so the hits are real segments saying the word.
    const scores = (
      await sql<{ key: string; score: number }>`
        select s.video_id || '@' || s.start_seconds as key, round(ts_rank_cd(s.words, websearch_to_tsquery('english', ${word}), 32)::numeric, 4)::float8 as score
        from transcript_segments s
        join unnest(${hits.map((h) => h.video.video_id)}::uuid[], ${hits.map((h) => h.start_seconds)}::float8[]) as h(video_id, start_seconds)
          on s.video_id = h.video_id and s.start_seconds = h.start_seconds`.execute(database.db)
    ).rows;
    const scoreOf = new Map(scores.map((row) => [row.key, Number(row.score)]));
    same(
      `search_transcripts "${word}": each score is its segment's`,
      hits.length,
      hits.filter((h) => scoreOf.get(hitKey(h)) === h.score).length,
    );
    const library = (
      await sql<{ segments: number; best: number }>`
        select count(*)::int as segments, coalesce(max(ts_rank_cd(s.words, websearch_to_tsquery('english', ${word}), 32)), 0)::float8 as best
        from transcript_segments s join videos v on v.id = s.video_id
        where s.workspace_id = ${workspace.workspaceId} and not v.archived and s.words @@ websearch_to_tsquery('english', ${word})`.execute(
        database.db,
      )
    ).rows[0];
    quality.push({
      videos: workspace.videos,
      q: word,
      matchingSegments: library?.segments ?? 0,
      bestInLibrary: Math.round((library?.best ?? 0) * 10_000) / 10_000,
      bestReturned: hits[0]?.score ?? 0,
    });
  }

  // ── search ─────────────────────────────────────────────────────────────────────────────────────
  const moment = (results: SearchResult[] | undefined) => results?.filter((r) => r.kind === 'transcript');
  const across = await search(QUERIES.selective);
  sameSet('search selective word: the planted moments', moments(planted.selective), keys(moment(across), resultKey));
  same('search selective word: the route named with it', planted.routeId, across?.find((r) => r.kind === 'route')?.id);
  sameSet('search phrase', moments(planted.phrase), keys(moment(await search(QUERIES.phrase)), resultKey));
  sameSet('search exclusion', moments(unexcluded), keys(moment(await search(QUERIES.exclusion)), resultKey));
  const misspelt = await search(QUERIES.misspeltTitle);
  same('search misspelt title: the video first', `video ${planted.titleVideoId}`, `${misspelt?.[0]?.kind} ${misspelt?.[0]?.id}`);
  const email = await search(QUERIES.leadEmail);
  same('search lead email: the lead first', `lead ${planted.leadId} 1`, `${email?.[0]?.kind} ${email?.[0]?.id} ${email?.[0]?.score}`);
  for (const word of [COMMON_WORD, VERY_COMMON_WORD]) {
    const results = await search(word);
    if (!results) continue;
    same(`search "${word}": a full page`, 20, results.length);
    same(
      `search "${word}": best first`,
      'descending',
      results.every((r, i) => i === 0 || (results[i - 1] as SearchResult).score >= r.score) ? 'descending' : 'out of order',
    );
    // Videos may match by a tag, which their snippet (title and description) does not show; moments always show it.
    const moments = results.filter((r) => r.kind === 'transcript');
    same(
      `search "${word}": every moment's snippet marks it`,
      moments.length,
      moments.filter((r) => r.snippet.includes(`**${word}**`)).length,
    );
  }
  return { checks, quality };
}

const hitKey = (hit: Hit) => `${hit.video.video_id}@${hit.start_seconds}`;
const resultKey = (result: SearchResult) => `${result.id}@${result.start_seconds}`;
