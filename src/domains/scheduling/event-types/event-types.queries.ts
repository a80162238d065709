/**
 * Event type rows, always within the caller's workspace: fetched (or locked for a patch), listed
 * newest first a keyset page at a time (event_types_created_idx), written, and the active event type
 * that already has a name. Writers first take the workspace's name lock, so two writers giving two
 * event types one name take turns and the second sees the first.
 */
import { randomUUID } from 'node:crypto';
import type { Insertable, Updateable } from 'kysely';
import { type Kysely, sql } from 'kysely';
import { findInWorkspace } from '../../../core/find-in-workspace.ts';
import { keysetPage, NEWEST_FIRST } from '../../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../../core/lists/pagination.ts';
import type { Database, EventTypeRow, EventTypesTable } from '../../../db/tables/index.ts';
import { lockWorkspace } from '../../workspace/index.ts';

export function findEventType(db: Kysely<Database>, workspaceId: string, id: string): Promise<EventTypeRow> {
  return findInWorkspace(db, 'event_types', { workspaceId, id }, (query) => query.selectAll());
}

export function lockEventType(db: Kysely<Database>, workspaceId: string, id: string): Promise<EventTypeRow> {
  return findInWorkspace(db, 'event_types', { workspaceId, id }, (query) => query.selectAll().forUpdate());
}

/**
 * Serializes the writes that could give two active event types one name. It locks the workspace
 * row the way booking writes do (`for no key update`, which inserts referencing the row do not
 * wait on); event types change rarely, so waiting behind a booking for a moment costs nothing.
 * Returns the workspace's time zone, the default of a new event type's.
 */
export async function lockEventTypeNames(db: Kysely<Database>, workspaceId: string): Promise<{ timezone: string }> {
  const workspace = await lockWorkspace(db, workspaceId);
  if (!workspace) throw new Error(`lockEventTypeNames: no workspace ${workspaceId}`);
  return { timezone: workspace.timezone };
}

/** A name as stored: trimmed, in one Unicode form (an "é" typed as one character or as "e" plus an accent looks the same). */
export function storedName(name: string): string {
  return name.trim().normalize('NFC');
}

/** The active event type named `name` (trimmed, case aside), other than `exceptId`, if there is one. */
export async function activeEventTypeNamed(
  db: Kysely<Database>,
  workspaceId: string,
  name: string,
  exceptId?: string,
): Promise<{ id: string; name: string } | undefined> {
  let query = db
    .selectFrom('event_types')
    .where('workspace_id', '=', workspaceId)
    .where('active', '=', true)
    // Both sides lowered by the database, so the comparison is the same whatever the client's case rules.
    .where(sql`lower(name)`, '=', sql<string>`lower(${storedName(name)})`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  return query.select(['id', 'name']).orderBy('created_at').limit(1).executeTakeFirst();
}

export async function insertEventType(
  db: Kysely<Database>,
  values: Omit<Insertable<EventTypesTable>, 'id' | 'created_at' | 'updated_at'>,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('event_types')
    .values({ ...values, id, created_at: now, updated_at: now })
    .execute();
  return id;
}

export async function updateEventTypeRow(
  db: Kysely<Database>,
  workspaceId: string,
  id: string,
  changes: Omit<Updateable<EventTypesTable>, 'id' | 'workspace_id' | 'created_at'>,
): Promise<void> {
  await db.updateTable('event_types').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

export function listEventTypeRows(
  db: Kysely<Database>,
  workspaceId: string,
  filters: { active?: boolean | undefined },
  page: PageRequest,
): Promise<KeysetRows<EventTypeRow>> {
  let query = db.selectFrom('event_types').where('workspace_id', '=', workspaceId);
  if (filters.active !== undefined) query = query.where('active', '=', filters.active);
  return keysetPage(query, (filtered) => filtered.selectAll(), NEWEST_FIRST, page);
}
