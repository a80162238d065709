/**
 * Erasing a person from the routes they played (erase_lead): their visits stay, so the route's
 * numbers (starts, completions, reach, choices, paths) do not change, but nothing links a visit to
 * them any more: the lead it captured is cleared, and their browsers' visits get the anonymous viewer
 * ids viewing gives those browsers.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

/** Clears the lead from its visits and re-labels its browsers' visits; answers how many visits changed. */
export async function forgetRouteVisitor(
  db: Kysely<Database>,
  workspaceId: string,
  visitor: { leadId: string; replacements: readonly { from: string; to: string }[] },
): Promise<number> {
  const cleared = await db
    .updateTable('route_visits')
    .set({ lead_id: null })
    .where('workspace_id', '=', workspaceId)
    .where('lead_id', '=', visitor.leadId)
    .executeTakeFirst();
  let relabelled = 0;
  if (visitor.replacements.length > 0) {
    const result = await sql`
      update route_visits v set viewer_id = r.to_id
      from unnest(${visitor.replacements.map((r) => r.from)}::text[], ${visitor.replacements.map((r) => r.to)}::text[]) as r(from_id, to_id)
      where v.workspace_id = ${workspaceId} and v.viewer_id = r.from_id`.execute(db);
    relabelled = Number(result.numAffectedRows ?? 0n);
  }
  return Number(cleared.numUpdatedRows) + relabelled;
}
