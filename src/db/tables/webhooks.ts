/** Webhook endpoints and the delivery log, which is also the sender's work queue. */
import type { Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

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
