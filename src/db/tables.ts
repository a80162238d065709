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
  watch_time_seconds: ColumnType<number, number | undefined, number>;
  engagement_sum: ColumnType<number, number | undefined, number>;
  completions: Count;
  conversions: Count;
  leads: Count;
  /** Distinct viewers as a ViewerSketch (domains/analytics/viewer-sketch.ts); null before any view. */
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
  day: ColumnType<string, string, string>;
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
}

export interface VideoDailyStatsTable {
  video_id: string;
  day: ColumnType<string, string, string>;
  workspace_id: string;
  views: ColumnType<number, number | undefined, number>;
  unique_viewers: ColumnType<number, number | undefined, number>;
  viewer_sketch: Uint8Array;
  watch_time_seconds: ColumnType<number, number | undefined, number>;
  engagement_sum: ColumnType<number, number | undefined, number>;
  completions: ColumnType<number, number | undefined, number>;
  conversions: ColumnType<number, number | undefined, number>;
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
  /** When webhook fan-out turned the event into deliveries; null until then. */
  dispatched_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
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

export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  name: string;
  url: string;
  /** Subscribed event types, or `['*']` for all. */
  events: string[];
  active: boolean;
  /** Why the service itself paused the endpoint (it answered 410 Gone); null when a person did, or never. */
  disabled_reason: string | null;
  /** The signing secret (`whsec_…`), sealed with the service secret: signing needs it back. */
  secret_sealed: string;
  /** The secret before the last rotation, still signed with until previous_secret_expires_at. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
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

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'exhausted';

/** One event for one endpoint: the delivery log entry and, while unfinished, the sender's work item. */
export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  /** The outbox event's id: the payload's `id` and the `webhook-id` header, the same on every attempt. */
  event_id: string;
  event_type: string;
  /** The exact body sent, built (and masked) once, so every attempt sends the same bytes. */
  payload: string;
  status: DeliveryStatus;
  /** Attempts started, counted when claimed: the fencing token for recording the attempt's result. */
  attempts: Generated<number>;
  max_attempts: number;
  /** When the next attempt is due; null once the delivery is finished. */
  next_attempt_at: Timestamp | null;
  /** Held by a sender until then; a lapsed lease means the sender died and the attempt is retried. */
  lease_until: Timestamp | null;
  locked_by: string | null;
  last_attempt_at: Timestamp | null;
  last_status_code: number | null;
  last_error: string | null;
  /** dns, refused, timeout, tls, non_2xx, blocked or connection. */
  last_failure_reason: string | null;
  last_duration_ms: number | null;
  last_response_excerpt: string | null;
  delivered_at: Timestamp | null;
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
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  video_transcripts: VideoTranscriptsTable;
  viewing_sessions: ViewingSessionsTable;
  viewing_batches: ViewingBatchesTable;
  video_daily_stats: VideoDailyStatsTable;
  video_heatmaps: VideoHeatmapsTable;
}

export type WorkspaceRow = Selectable<WorkspacesTable>;
export type CredentialRow = Selectable<CredentialsTable>;
export type FolderRow = Selectable<FoldersTable>;
export type VideoRow = Selectable<VideosTable>;
export type NewVideo = Insertable<VideosTable>;
export type JobRow = Selectable<JobsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDelivery = Insertable<WebhookDeliveriesTable>;
