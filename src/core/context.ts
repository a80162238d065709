/**
 * What a handler gets besides its input: the caller, the database (a transaction for writes), the
 * clock, a logger, cursors bound to this operation, and the events outbox. Nothing here knows about
 * HTTP or MCP.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { EventType } from './events.ts';
import type { MediaLinks } from './media-links.ts';
import type { CursorCodec } from './pagination.ts';
import type { Principal } from './principal.ts';

export interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OperationContext {
  workspaceId: string;
  principal: Principal;
  db: Kysely<Database>;
  now: Date;
  requestId: string;
  /** The caller's rate limit in force (plan ceiling or the configured override). */
  requestsPerMinute: number;
  log: Log;
  cursors: CursorCodec;
  /** URLs of the public media surface (signed upload URLs, playback, posters). */
  links: MediaLinks;
  /** Operator-configured limits handlers enforce. */
  limits: { maxUploadBytes: number };
  /** Records an event in the outbox, in the same transaction as the change it describes. */
  emit(type: EventType, data: Record<string, unknown>): Promise<void>;
}
