/**
 * Writing the audit log (DESIGN §10): one row per change, in the transaction of the change, so an
 * event exists exactly when its change committed. The pipeline writes one for every successful write;
 * writers that own their transaction (the command line, the public pages, Stripe) call it themselves.
 *
 * An entry names its actor and its object by kind and id. It never copies a lead's personal data
 * (email, name, phone) nor a public visitor's address or browser, and never a secret: details carry
 * ids, counts, statuses, scopes and roles only. So erasing a lead leaves nothing of the person here.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isUuid } from '../../core/values/real-instants.ts';
import type { Database } from '../../db/tables/index.ts';

export interface AuditEntry {
  workspaceId: string;
  at: Date;
  /** Who acted: a key or assistant token (its credential id and name), a signed-in user, the service itself, the command line. */
  actor: { kind: 'api_key' | 'assistant' | 'user' | 'system' | 'cli'; id: string | null; name: string };
  /** An operation's name (`create_video`), or a people action: `sign_in.succeeded`, `member.invited`, … */
  action: string;
  /** What the change acted on, by kind and id; null when it names no one object (rename_tag). */
  object: { kind: string; id: string } | null;
  /**
   * Where the call came from. The address and client of API and dashboard callers; for the public
   * pages none, since a visitor's address is personal data an erasure could not find.
   */
  origin: { transport: 'rest' | 'mcp' | 'dashboard' | 'cli' | 'public' | 'stripe' | 'oauth'; address?: string; userAgent?: string } | null;
  /** Ids, counts, statuses, scopes, roles: never personal data of a lead, never a secret. */
  details?: Record<string, string | number | boolean | null>;
}

/** Kept to this many characters: a name or a User-Agent is a label here, not a document. */
const MAX_TEXT = 512;

/** Records one audit event with `db`, which should be the transaction of the change it describes. */
export async function recordAuditEvent(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await recordAuditEvents(db, [entry]);
}

/** Records several audit events in one statement (a person's sign-in, written once per workspace of theirs). */
export async function recordAuditEvents(db: Kysely<Database>, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insertInto('audit_events').values(entries.map(auditRow)).execute();
}

function auditRow(entry: AuditEntry) {
  return {
    id: randomUUID(),
    workspace_id: entry.workspaceId,
    at: entry.at,
    actor_kind: entry.actor.kind,
    actor_id: entry.actor.id === null ? null : canonicalId(entry.actor.id),
    actor_name: clipped(entry.actor.name) || entry.actor.kind,
    action: entry.action,
    object_kind: entry.object?.kind ?? null,
    object_id: entry.object ? canonicalId(entry.object.id) : null,
    origin_transport: entry.origin?.transport ?? null,
    origin_address: entry.origin?.address ?? null,
    origin_user_agent: entry.origin?.userAgent === undefined ? null : clipped(entry.origin.userAgent),
    details: JSON.stringify(entry.details ?? {}),
  };
}

/** Ids as the database writes them (lower case), so a filter by id finds what a path spelt in capitals. */
function canonicalId(id: string): string {
  return isUuid(id) ? id.toLowerCase() : id;
}

function clipped(text: string): string {
  return [...text].slice(0, MAX_TEXT).join('');
}
