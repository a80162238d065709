/**
 * The browsers linked to a lead (lead_viewers), as a subquery other areas narrow their rows by: a
 * lead's views and clicks (viewing), its route choices (routes), the views its outcomes are
 * attributed to (outcomes). A link is a fact about the browser, not a moment: its sessions before
 * and after the link are the lead's.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** The viewer ids linked to the lead, as a subquery of one `viewer_id` column. */
export function leadBrowsers(db: Kysely<Database>, workspaceId: string, leadId: string) {
  return db
    .selectFrom('lead_viewers as lv')
    .select('lv.viewer_id')
    .where('lv.workspace_id', '=', workspaceId)
    .where('lv.lead_id', '=', leadId);
}
