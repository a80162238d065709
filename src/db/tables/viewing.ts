/**
 * Viewing: what players report (sessions and their raw batches, src/domains/viewing/) and the
 * rollups it is folded into, which the analytics reads (src/domains/analytics/).
 */
import type { ColumnType, Generated } from 'kysely';
import type { Count, Day, Timestamp } from './column-types.ts';

/** Per-video totals maintained by the analytics rollups; no row means nothing watched yet. */
export interface VideoStatsTable {
  video_id: string;
  workspace_id: string;
  views: Count;
  unique_viewers: Count;
  watch_time_seconds: ColumnType<number, number | undefined, number>;
  engagement_sum: ColumnType<number, number | undefined, number>;
  completions: Count;
  conversions: Count;
  leads: Count;
  /** Distinct viewers as a ViewerSketch (domains/viewing/viewer-sketch.ts); null before any view. */
  viewer_sketch: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  updated_at: Timestamp;
}

/** One page view of a video and what it has watched so far (see migration 0007). */
export interface ViewingSessionsTable {
  id: string;
  workspace_id: string;
  video_id: string;
  viewer_id: string;
  /** The workspace-local day the session started, YYYY-MM-DD; its rollups all go to this day. */
  day: Day;
  duration_seconds: number;
  started_at: Timestamp;
  last_seen_at: Timestamp;
  last_sequence: number;
  /** Merged watched ranges, [[start, end], …] in seconds, sorted and disjoint. */
  watched: ColumnType<[number, number][], string, string>;
  played_seconds: ColumnType<number, number | undefined, number>;
  is_view: Generated<boolean>;
  completed: Generated<boolean>;
  cta_clicks: ColumnType<number, number | undefined, number>;
}

/** Raw collected batches, as received; pruned after the retention period. */
export interface ViewingBatchesTable {
  session_id: string;
  sequence: number;
  workspace_id: string;
  video_id: string;
  events: ColumnType<unknown[], string, string>;
  received_at: Timestamp;
  /** The browser's id as the batch gave it; null on batches stored before migration 0026. */
  viewer_id: string | null;
  /** The transaction that stored the batch and its number: the fold's order (migration 0026). Null: counted on arrival. */
  fold_xid: ColumnType<string | null, never, never>;
  position: ColumnType<number | null, never, never>;
}

/** The fold's cursor (one row): the last batch folded, in (fold_xid, position) order. */
export interface ViewingFoldTable {
  id: ColumnType<number, never, never>;
  fold_xid: string;
  position: number;
  folded_at: Timestamp | null;
}

/** The workspace's day: the sums of its videos' days, its distinct viewers and the videos viewed (migration 0026). */
export interface WorkspaceDailyStatsTable {
  workspace_id: string;
  day: Day;
  views: ColumnType<number, number | undefined, number>;
  unique_viewers: ColumnType<number, number | undefined, number>;
  viewer_sketch: Uint8Array;
  /** The ids of the videos viewed that day, as a sketch of distinct ids like the viewers'. */
  video_sketch: Uint8Array;
  watch_time_seconds: ColumnType<number, number | undefined, number>;
  engagement_sum: ColumnType<number, number | undefined, number>;
  completions: ColumnType<number, number | undefined, number>;
  conversions: ColumnType<number, number | undefined, number>;
  /** Leads captured by the workspace's video forms that day. */
  leads: ColumnType<number, number | undefined, number>;
  /** Leads created that day, whatever their source (migration 0027). */
  new_leads: ColumnType<number, number | undefined, number>;
}

/** Succeeded purchases and refunds per workspace, local day and currency, in minor units (migration 0027). */
export interface WorkspaceDailyRevenueTable {
  workspace_id: string;
  day: Day;
  currency: string;
  purchases: ColumnType<number, number | undefined, number>;
  purchased: ColumnType<number, number | undefined, number>;
  refunds: ColumnType<number, number | undefined, number>;
  refunded: ColumnType<number, number | undefined, number>;
}

export interface VideoDailyStatsTable {
  video_id: string;
  day: Day;
  workspace_id: string;
  views: ColumnType<number, number | undefined, number>;
  unique_viewers: ColumnType<number, number | undefined, number>;
  viewer_sketch: Uint8Array;
  watch_time_seconds: ColumnType<number, number | undefined, number>;
  engagement_sum: ColumnType<number, number | undefined, number>;
  completions: ColumnType<number, number | undefined, number>;
  conversions: ColumnType<number, number | undefined, number>;
  /** Leads captured by this video's form that day. */
  leads: ColumnType<number, number | undefined, number>;
}

/** Per video, 100 equal slices: views that watched each (reach), plays of each, CTA clicks in each. */
export interface VideoHeatmapsTable {
  video_id: string;
  workspace_id: string;
  views: ColumnType<number, number | undefined, number>;
  reach: number[];
  plays: number[];
  cta_clicks: number[];
}
