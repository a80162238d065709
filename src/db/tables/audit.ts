/** The audit log (migration 0031): one row per change, naming its actor and object by id. */
import type { ColumnType } from 'kysely';
import type { Json, Timestamp } from './column-types.ts';

export type AuditActorKind = 'api_key' | 'assistant' | 'user' | 'system' | 'cli';
export type AuditTransport = 'rest' | 'mcp' | 'dashboard' | 'cli' | 'public' | 'stripe' | 'oauth';

export interface AuditEventsTable {
  id: string;
  workspace_id: string;
  /** Orders one millisecond's events as they were written; the keyset's last column. Read as a JS number. */
  sequence: ColumnType<number, never, never>;
  at: Timestamp;
  actor_kind: AuditActorKind;
  /** The credential (key, assistant) or the user; null for the service itself and the command line. */
  actor_id: string | null;
  actor_name: string;
  action: string;
  object_kind: string | null;
  object_id: string | null;
  origin_transport: AuditTransport | null;
  origin_address: string | null;
  origin_user_agent: string | null;
  /** A flat object of ids, counts, statuses, scopes and roles: never a lead's personal data, never a secret. */
  details: Json;
}
