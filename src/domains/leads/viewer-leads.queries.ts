/**
 * Which lead a browser (the player's viewer id) belongs to, as other areas ask it: a browser may be
 * linked to several leads (lead_viewers); a route visit takes the one it was most recently linked to.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** The lead the browser was most recently linked to in this workspace, if any. */
export async function latestLeadOfViewer(db: Kysely<Database>, workspaceId: string, viewerId: string): Promise<string | null> {
  const link = await db
    .selectFrom('lead_viewers')
    .select('lead_id')
    .where('workspace_id', '=', workspaceId)
    .where('viewer_id', '=', viewerId)
    .orderBy('linked_at', 'desc')
    .orderBy('lead_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return link?.lead_id ?? null;
}
