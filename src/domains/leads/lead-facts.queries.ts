/**
 * What other areas read of leads, one question each, always inside one workspace: the ledger finds
 * the lead an email names, attribution asks which video captured a lead and when, and the day
 * rollup's rebuild (viewing) counts leads by the day they were created.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, LeadRow } from '../../db/tables/index.ts';
import { emailKey } from './lead-records.queries.ts';

/** The id of the workspace's lead with this email (compared as upsert_lead compares), or undefined. */
export async function leadIdByEmail(db: Kysely<Database>, workspaceId: string, email: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('leads')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where(sql<string>`lower(email)`, '=', emailKey(email))
    .executeTakeFirst();
  return row?.id;
}

/** The video whose form captured the lead (null for other sources) and when the lead was created; undefined when there is no such lead. */
export function leadOrigin(
  db: Kysely<Database>,
  workspaceId: string,
  leadId: string,
): Promise<Pick<LeadRow, 'source_video_id' | 'created_at'> | undefined> {
  return db
    .selectFrom('leads')
    .select(['source_video_id', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', leadId)
    .executeTakeFirst();
}

/** When each of the workspace's leads was created, in no order. */
export async function leadCreationTimes(db: Kysely<Database>, workspaceId: string): Promise<Date[]> {
  const rows = await db.selectFrom('leads').select('created_at').where('workspace_id', '=', workspaceId).execute();
  return rows.map((row) => row.created_at);
}
