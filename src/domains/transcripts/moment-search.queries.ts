/**
 * The moments of a workspace's transcripts that say what a query asks (search_transcripts, and the
 * transcript part of search, both in the search area): PostgreSQL full-text search over
 * transcript_segments, each segment's words parsed in its transcript language's configuration
 * (stemmed: "prices" finds "pricing"), the query parsed by websearch_to_tsquery (words, "quoted
 * phrases", -excluded words, or) in each configuration the workspace's transcripts use, so the GIN
 * index on the words finds the segments without reading every transcript. Ranked by ts_rank_cd
 * (normalised to 0–1); the snippet marks the matched words with the caller's marks and is made only
 * for the moments returned.
 *
 * What a search costs stays bounded (bench/search-reads.ts measures it):
 * - the configurations are found by one index probe per configuration the workspace uses
 *   (migration 0025), not by reading the workspace's transcripts;
 * - each matching segment's video is looked up by its key, not by reading every video;
 * - at most MOMENTS_RANKED_AT_MOST matching segments are ranked. A word said in a third of all
 *   segments matches hundreds of thousands of them in a large library, and ranking every one
 *   (reading it and scoring it) took over a second at 10,000 videos; above the bound, the moments
 *   returned are the best of the first MOMENTS_RANKED_AT_MOST the index finds (the order the
 *   transcripts were written in), and a more specific query (another word, a phrase) ranks across
 *   the whole library again.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { videosArea } from './videos-area.ts';

export interface MomentQuery {
  workspaceId: string;
  q: string;
  videoId?: string;
  includeArchived: boolean;
  limit: number;
}

export interface Moment {
  videoId: string;
  title: string;
  archived: boolean;
  status: string;
  startSeconds: number;
  endSeconds: number;
  /** Where the segment starts in the transcript's text (get_video_transcript's offset). */
  offset: number;
  snippet: string;
  score: number;
}

/** Most matching segments ranked for one search; see above. */
export const MOMENTS_RANKED_AT_MOST = 1000;

/** The best moments for the query, best first, their snippets' matched words between `mark`s. */
export async function findTranscriptMoments(db: Kysely<Database>, query: MomentQuery, mark: string): Promise<Moment[]> {
  const { videoListingByKey } = await videosArea();
  const inVideo = (alias: 't' | 's') => (query.videoId ? sql`and ${sql.ref(`${alias}.video_id`)} = ${query.videoId}` : sql``);
  // Three plan shapes are pinned here, as the planner cannot see the query's words (they are parsed
  // in the statement) and guesses from its defaults:
  // - `configs`: the workspace's configurations one after the other along the index (migration
  //   0025), a probe each, never a read of the workspace's transcripts;
  // - the segments come from the words' GIN index alone (the offset 0 fence keeps the workspace
  //   test out of the scan): combined with the workspace index, as the planner likes to for a small
  //   workspace, the bitmap of every segment of the workspace costs as much as the library is large;
  // - each segment's video is looked up by its key (a lateral subquery), not joined with every video
  //   of the workspace, and archived ones are left out before the bound counts them.
  // Materialized: each configuration's query is parsed once, not again for every segment.
  const { rows } = await sql<{
    video_id: string;
    title: string;
    archived: boolean;
    status: string;
    start_seconds: number;
    end_seconds: number;
    score: number;
    snippet: string;
    offset: number;
  }>`
    with recursive configs as (
      (select t.search_config as config from video_transcripts t
        where t.workspace_id = ${query.workspaceId} ${inVideo('t')} order by t.search_config limit 1)
      union all
      select (select t.search_config from video_transcripts t
        where t.workspace_id = ${query.workspaceId} ${inVideo('t')} and t.search_config > c.config order by t.search_config limit 1)
      from configs c where c.config is not null
    ), queries as materialized (
      select config, websearch_to_tsquery(config, ${query.q}) as query from configs where config is not null
    ), candidates as materialized (
      select s.video_id, s.position, s.search_config, q.query, ts_rank_cd(s.words, q.query, 32) as score, v.title, v.archived, v.status
      from queries q
      cross join lateral (select s.workspace_id, s.video_id, s.position, s.search_config, s.words from transcript_segments s
        where s.search_config = q.config and s.words @@ q.query ${inVideo('s')} offset 0) s
      cross join lateral (${videoListingByKey(sql.ref('s.video_id'), query.includeArchived)} offset 0) v
      where s.workspace_id = ${query.workspaceId}
      limit ${MOMENTS_RANKED_AT_MOST}
    ), hits as (
      select * from candidates
      order by score desc, title, video_id, position
      limit ${query.limit}
    )
    select h.video_id, h.title, h.archived, h.status, s.start_seconds, s.end_seconds, h.score,
      ts_headline(h.search_config, s.text, h.query, ${`StartSel=${mark}, StopSel=${mark}, HighlightAll=true`}) as snippet,
      -- In UTF-16 code units, as get_video_transcript slices the text: a character beyond U+FFFF (an emoji) counts twice.
      (select coalesce(sum(char_length(p.text) + char_length(regexp_replace(p.text, '[^\U00010000-\U0010FFFF]', '', 'g')) + 1), 0)
        from transcript_segments p where p.video_id = h.video_id and p.position < h.position)::integer as offset
    from hits h
    join transcript_segments s on s.video_id = h.video_id and s.position = h.position
    order by h.score desc, h.title, h.video_id, h.position`.execute(db);
  return rows.map((row) => ({
    videoId: row.video_id,
    title: row.title,
    archived: row.archived,
    status: row.status,
    startSeconds: row.start_seconds,
    endSeconds: row.end_seconds,
    offset: Number(row.offset),
    snippet: row.snippet,
    score: Number(row.score),
  }));
}
