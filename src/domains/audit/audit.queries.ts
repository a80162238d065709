/** The audit log, read: a workspace's events newest first, filtered by actor, action, object and time. */
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { type KeysetOrder, keysetPage } from '../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../core/lists/pagination.ts';
import type { Database } from '../../db/tables/index.ts';
import type { AuditEvent } from './audit.schemas.ts';

export interface AuditFilters {
  actorId?: string | undefined;
  action?: string | undefined;
  objectId?: string | undefined;
  /** Included. */
  from?: Date | undefined;
  /** Excluded. */
  to?: Date | undefined;
}

/** Newest first; `sequence` orders one millisecond's events as they were written, and is unique. */
const NEWEST_EVENTS_FIRST: KeysetOrder = {
  direction: 'desc',
  columns: [
    { expression: 'at', type: 'timestamptz' },
    { expression: 'sequence', type: 'bigint' },
  ],
};

export async function listAuditEvents(
  db: Kysely<Database>,
  workspaceId: string,
  filters: AuditFilters,
  page: PageRequest,
): Promise<KeysetRows<Static<typeof AuditEvent>>> {
  let query = db.selectFrom('audit_events').where('workspace_id', '=', workspaceId);
  if (filters.actorId) query = query.where('actor_id', '=', filters.actorId.toLowerCase());
  if (filters.action) query = query.where('action', '=', filters.action);
  if (filters.objectId) query = query.where('object_id', '=', filters.objectId.toLowerCase());
  if (filters.from) query = query.where('at', '>=', filters.from);
  if (filters.to) query = query.where('at', '<', filters.to);
  const { rows, keys, total } = await keysetPage(
    query,
    (q) =>
      q.select([
        'id',
        'at',
        'actor_kind',
        'actor_id',
        'actor_name',
        'action',
        'object_kind',
        'object_id',
        'origin_transport',
        'origin_address',
        'origin_user_agent',
        'details',
      ]),
    NEWEST_EVENTS_FIRST,
    page,
  );
  return {
    rows: rows.map((row) => ({
      audit_event_id: row.id,
      at: row.at.toISOString(),
      actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
      action: row.action,
      object: row.object_kind !== null && row.object_id !== null ? { kind: row.object_kind, id: row.object_id } : null,
      origin:
        row.origin_transport === null
          ? null
          : { transport: row.origin_transport, address: row.origin_address, user_agent: row.origin_user_agent },
      details: row.details as Static<typeof AuditEvent>['details'],
    })),
    keys,
    total,
  };
}
