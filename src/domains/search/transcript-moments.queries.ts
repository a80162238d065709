/**
 * The moments of a workspace's transcripts that say what a query asks (search_transcripts, and the
 * transcript part of search): PostgreSQL full-text search over transcript_segments, each segment's
 * words parsed in its transcript language's configuration (stemmed: "prices" finds "pricing"), the
 * query parsed by websearch_to_tsquery (words, "quoted phrases", -excluded words, or) in each
 * configuration the workspace's transcripts use, so the GIN index on the words finds the segments
 * without reading every transcript. Ranked by ts_rank_cd (normalised to 0–1); the snippet marks the
 * matched words with ** and is made only for the moments returned.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

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

/** The marks around matched words in snippets. */
export const MATCH_MARK = '**';

export async function findMoments(db: Kysely<Database>, query: MomentQuery): Promise<Moment[]> {
  const inVideo = query.videoId ? sql`and video_id = ${query.videoId}` : sql``;
  const archived = query.includeArchived ? sql`` : sql`and not v.archived`;
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
    with queries as (
      select search_config as config, websearch_to_tsquery(search_config, ${query.q}) as query
      from (select distinct search_config from video_transcripts where workspace_id = ${query.workspaceId} ${inVideo}) configs
    ), hits as (
      select s.video_id, v.title, v.archived, v.status, s.position, s.start_seconds, s.end_seconds, s.text, s.search_config, q.query,
        ts_rank_cd(s.words, q.query, 32) as score
      from queries q
      join transcript_segments s on s.search_config = q.config and s.words @@ q.query
      join videos v on v.id = s.video_id
      where s.workspace_id = ${query.workspaceId} ${query.videoId ? sql`and s.video_id = ${query.videoId}` : sql``} ${archived}
      order by score desc, v.title, s.video_id, s.position
      limit ${query.limit}
    )
    select h.video_id, h.title, h.archived, h.status, h.start_seconds, h.end_seconds, h.score,
      ts_headline(h.search_config, h.text, h.query, ${`StartSel=${MATCH_MARK}, StopSel=${MATCH_MARK}, HighlightAll=true`}) as snippet,
      (select coalesce(sum(char_length(p.text) + 1), 0) from transcript_segments p where p.video_id = h.video_id and p.position < h.position)::integer as offset
    from hits h
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
