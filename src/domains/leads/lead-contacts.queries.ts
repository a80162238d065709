/**
 * A lead's contact fields for other areas: looked up by email, compared as upsert_lead compares
 * (trimmed, case aside), for a writer that fills only what the lead lacks before it upserts; or as a
 * table to join in the reader's own statement for rows that name a lead (an outcome's buyer).
 * PostgreSQL flattens that subquery into a join on `leads`.
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database, LeadRow } from '../../db/tables/index.ts';
import { emailKey } from './lead-records.queries.ts';

/** The email, names and phone of the workspace's lead with this email; undefined when there is none. */
export async function leadContactByEmail(
  db: Kysely<Database>,
  workspaceId: string,
  email: string,
): Promise<Pick<LeadRow, 'email' | 'name' | 'first_name' | 'phone'> | undefined> {
  return db
    .selectFrom('leads')
    .select(['email', 'name', 'first_name', 'phone'])
    .where('workspace_id', '=', workspaceId)
    .where(sql<string>`lower(email)`, '=', emailKey(email))
    .executeTakeFirst();
}

/** The workspace's leads as (id, email, name, first_name, last_name), to join by id (`.as('l')`). */
export function leadContacts(
  db: Kysely<Database>,
  workspaceId: string,
): SelectQueryBuilder<Database, 'leads', Pick<LeadRow, 'id' | 'email' | 'name' | 'first_name' | 'last_name'>> {
  return db.selectFrom('leads').select(['id', 'email', 'name', 'first_name', 'last_name']).where('workspace_id', '=', workspaceId);
}

/** One lead's contact fields as stored, unmasked (reveal_lead); `not_found` unless the workspace has the lead. */
export async function leadContactById(
  db: Kysely<Database>,
  workspaceId: string,
  leadId: string,
): Promise<Pick<LeadRow, 'id' | 'email' | 'first_name' | 'last_name' | 'name' | 'phone'>> {
  return findInWorkspace(db, 'leads', { workspaceId, id: leadId }, (query) =>
    query.select(['id', 'email', 'first_name', 'last_name', 'name', 'phone']),
  );
}
