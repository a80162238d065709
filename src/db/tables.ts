/**
 * The Kysely view of the database: one row type per table. Migrations in ./migrations are the truth;
 * these types follow them. Timestamps are `timestamptz(3)` (millisecond precision, like a JS Date) so
 * that a value read back and written into a cursor compares equal to the stored one.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json = ColumnType<unknown, string, string>;
/** bigint columns are parsed as JS numbers (see client.ts): every count and size here stays below 2^53. */
type Count = ColumnType<number, number | undefined, number>;

export interface WorkspacesTable {
  id: string;
  name: string;
  plan: 'free' | 'pro' | 'business';
  mask_pii: Generated<boolean>;
  assistant_guidance: Generated<string>;
  timezone: Generated<string>;
  created_at: CreatedAt;
}

export interface CredentialsTable {
  id: string;
  workspace_id: string;
  kind: 'api_key' | 'assistant';
  name: string;
  prefix: string;
  token_hash: string;
  scopes: string[];
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface FoldersTable {
  id: string;
  workspace_id: string;
  name: string;
  created_at: CreatedAt;
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
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Per-video totals maintained by the analytics rollups; no row means nothing watched yet. */
export interface VideoStatsTable {
  video_id: string;
  workspace_id: string;
  views: Count;
  unique_viewers: Count;
  watch_time_seconds: Count;
  engagement_sum: ColumnType<number, number | undefined, number>;
  completions: Count;
  conversions: Count;
  leads: Count;
  updated_at: Timestamp;
}

export interface IdempotencyKeysTable {
  credential_id: string;
  key: string;
  workspace_id: string;
  operation: string;
  fingerprint: string;
  state: 'running' | 'completed';
  response_status: number | null;
  /** The stored response, sealed (AES-256-GCM): it may hold a secret shown once, such as a new API key. */
  response_body: string | null;
  locked_at: Timestamp;
  expires_at: Timestamp;
}

export interface EventsTable {
  id: string;
  sequence: Generated<number>;
  workspace_id: string;
  type: string;
  data: Json;
  created_at: CreatedAt;
}

/** Settings every process of one deployment must share, such as the generated signing secret. */
export interface ServiceSettingsTable {
  name: string;
  value: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  workspace_id: string | null;
  payload: Json;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  lease_until: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface VideoUploadsTable {
  video_id: string;
  workspace_id: string;
  file_size: number;
  state: 'open' | 'receiving' | 'done';
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** A video's transcript: timed segments, and their text joined for reading and search. */
export interface VideoTranscriptsTable {
  video_id: string;
  workspace_id: string;
  source: 'embedded_subtitles';
  language: string | null;
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

export interface Database {
  workspaces: WorkspacesTable;
  credentials: CredentialsTable;
  folders: FoldersTable;
  videos: VideosTable;
  video_stats: VideoStatsTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  service_settings: ServiceSettingsTable;
  jobs: JobsTable;
  video_uploads: VideoUploadsTable;
  video_transcripts: VideoTranscriptsTable;
}

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type CredentialRow = Selectable<CredentialsTable>;
export type FolderRow = Selectable<FoldersTable>;
export type VideoRow = Selectable<VideosTable>;
export type NewVideo = Insertable<VideosTable>;
export type JobRow = Selectable<JobsTable>;
