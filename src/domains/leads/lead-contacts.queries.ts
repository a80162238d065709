/**
 * A lead's contact fields looked up by email, compared as upsert_lead compares (trimmed, case aside),
 * for a writer that fills only what the lead lacks before it upserts.
 */
import { type Kysely, sql } from 'kysely';
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
