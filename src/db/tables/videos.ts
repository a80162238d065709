/** The video library: folders, videos, direct uploads in progress, and transcripts. */
import type { ColumnType, Generated } from 'kysely';
import type { Count, CreatedAt, Timestamp } from './column-types.ts';

export interface FoldersTable {
  id: string;
  workspace_id: string;
  /** Unique in the workspace whatever its case (index on lower(name)). */
  name: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface VideosTable {
  id: string;
  workspace_id: string;
  folder_id: string | null;
  title: string;
  description: Generated<string>;
  tags: Generated<string[]>;
  status: 'waiting_upload' | 'processing' | 'ready' | 'failed';
  archived: Generated<boolean>;
  source_url: string | null;
  file_name: string | null;
  file_size: number | null;
  duration_seconds: ColumnType<number | null, number | null | undefined, number | null>;
  width: number | null;
  height: number | null;
  failure_reason: string | null;
  media_type: ColumnType<string | null, string | null | undefined, string | null>;
  video_codec: ColumnType<string | null, string | null | undefined, string | null>;
  audio_codec: ColumnType<string | null, string | null | undefined, string | null>;
  bitrate: ColumnType<number | null, number | null | undefined, number | null>;
  has_poster: Generated<boolean>;
  view_count: Count;
  /** The lead form the watch and embed pages show (domains/leads/lead-form.ts); null when off. */
  lead_form: ColumnType<unknown | null, string | null | undefined, string | null>;
  /** The event type whose booking page the watch and embed pages offer ("Book a call"); null: none. */
  booking_event_type_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Where a rendition is: waiting for its job, being made, playable, or given up on (the video still plays). */
export type RenditionState = 'queued' | 'processing' | 'ready' | 'failed';

/** One rung of a video's HLS ladder (migration 0028); its id names its files in the media store. */
export interface VideoRenditionsTable {
  id: string;
  workspace_id: string;
  video_id: string;
  /** The rung, e.g. `360p` (its height, or its width for a portrait video). */
  name: string;
  width: number;
  height: number;
  video_kbps: number;
  /** Null when the source has no sound. */
  audio_kbps: number | null;
  state: RenditionState;
  /** The RFC 6381 CODECS value, e.g. `avc1.4d4020,mp4a.40.2`. */
  codecs: ColumnType<string | null, string | null | undefined, string | null>;
  /** Peak segment bit rate, bits per second (the master playlist's BANDWIDTH). */
  bandwidth: ColumnType<number | null, number | null | undefined, number | null>;
  average_bandwidth: ColumnType<number | null, number | null | undefined, number | null>;
  segments: ColumnType<number | null, number | null | undefined, number | null>;
  bytes: ColumnType<number | null, number | null | undefined, number | null>;
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VideoUploadsTable {
  video_id: string;
  workspace_id: string;
  file_size: number;
  state: 'open' | 'receiving' | 'done';
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** Where a transcript's words came from: uploaded captions, the file's subtitle track, or recognised speech. */
export type TranscriptSource = 'captions' | 'embedded' | 'speech_to_text';

/** A video's transcript: timed segments, and their text joined for reading and search. */
export interface VideoTranscriptsTable {
  video_id: string;
  workspace_id: string;
  source: TranscriptSource;
  language: string | null;
  /** The text search configuration of its language (transcript_search_config, migration 0023), set by the database. */
  search_config: ColumnType<string, string | undefined, string | undefined>;
  /** JSON array of { start_seconds, end_seconds, text }, in time order. */
  segments: ColumnType<TranscriptSegmentJson[], string, string>;
  full_text: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TranscriptSegmentJson {
  start_seconds: number;
  end_seconds: number;
  text: string;
}

/** One timed segment of a transcript, with its words for full-text search (migration 0023). */
export interface TranscriptSegmentsTable {
  video_id: string;
  workspace_id: string;
  position: number;
  start_seconds: number;
  end_seconds: number;
  text: string;
  search_config: string;
  /** to_tsvector(search_config, text), kept by PostgreSQL. */
  words: ColumnType<string, never, never>;
}
