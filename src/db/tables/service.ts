/**
 * What the service keeps for itself rather than for a domain: the events outbox, stored idempotent
 * responses, the background job queue, and deployment-wide settings.
 */
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Json, Timestamp } from './column-types.ts';

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

/** Settings every process of one deployment must share, such as the generated signing secret. */
export interface ServiceSettingsTable {
  name: string;
  value: string;
}
