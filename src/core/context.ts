/**
 * What a handler gets besides its input: the caller, the database (a transaction for writes), the
 * clock, a logger, cursors bound to this operation, and the events outbox. Nothing here knows about
 * HTTP or MCP.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables/index.ts';
import type { EventData, EventType } from '../event-catalog.ts';
import type { MediaLinks } from '../media/media-links.ts';
import type { Cidr } from '../net/address-policy.ts';
import type { Lookup } from '../net/check-url.ts';
import type { MediaStore } from '../storage/media-store.ts';
import type { CursorCodec } from './lists/pagination.ts';
import type { Principal } from './pipeline/principal.ts';
import type { SealedBox } from './secrets/sealed-box.ts';

/**
 * The database as a surface outside the pipeline holds it (the public pages, workers): a handle it passes to a
 * domain's front door. Transports never write SQL, so for them it is opaque.
 */
export type DataAccess = Kysely<Database>;

/**
 * Records one event in the outbox, in the transaction of the change it describes: `ctx.emit` in an
 * operation, `outboxEmitter` (src/db/outbox.ts) for a write that owns its transaction. Domain code
 * takes one as a parameter and never reaches the outbox itself.
 */
export type Emit = <T extends EventType>(type: T, data: EventData<T>) => Promise<void>;

export interface Log {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What outbound requests to user-supplied URLs (webhook endpoints) may reach, and how long they may take. */
export interface OutboundSettings {
  /** CUEPOINT_ALLOW_PRIVATE_NETWORKS: the only non-public ranges reachable. */
  allowPrivateNetworks: readonly Cidr[];
  /** Resolver override for tests; default dns.lookup. */
  lookup?: Lookup;
  /** One webhook attempt, DNS to the last response byte read. */
  webhookTimeoutMs: number;
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
  /** What handlers may ask of the stored media files: whether one is there (retry_video). */
  media: Pick<MediaStore, 'stat'>;
  /** Operator-configured limits handlers enforce. */
  limits: { maxUploadBytes: number };
  outbound: OutboundSettings;
  /** Seals values the service must read back later but never keep readable (webhook signing secrets). */
  sealedBox(purpose: string): SealedBox;
  /**
   * Records an event in the outbox, in the same transaction as the change it describes. The data is
   * typed, and checked when recorded, by the event's schema in the events catalog (src/event-catalog.ts).
   */
  emit: Emit;
}
