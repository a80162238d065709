/**
 * The leads area's own part of erasing a lead (erase_lead): which browsers are theirs alone, and the
 * lead's rows (the lead, its notes and activities, its links to browsers).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** A browser of the erased lead, and the anonymous viewer id its rows get instead. */
export interface BrowserReplacement {
  from: string;
  to: string;
}

/**
 * The lead's browsers (lead_viewers) that no other lead of the workspace shares, each with a new
 * viewer id for its rows: random, in the player's format, linked to nobody. A browser another lead
 * shares (a family computer) keeps its id: its history is the other person's too; only its link to
 * the erased lead goes.
 */
export async function browsersToAnonymise(db: Kysely<Database>, workspaceId: string, leadId: string): Promise<BrowserReplacement[]> {
  const rows = await db
    .selectFrom('lead_viewers as mine')
    .select('mine.viewer_id')
    .where('mine.workspace_id', '=', workspaceId)
    .where('mine.lead_id', '=', leadId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('lead_viewers as other')
            .select('other.lead_id')
            .where('other.workspace_id', '=', workspaceId)
            .whereRef('other.viewer_id', '=', 'mine.viewer_id')
            .where('other.lead_id', '<>', leadId),
        ),
      ),
    )
    .execute();
  return rows.map((row) => ({ from: row.viewer_id, to: `erased_${randomBytes(16).toString('hex')}` }));
}

/** Deletes the lead with its activities (notes, forms, status changes, journey steps) and browser links. */
export async function deleteLeadRows(db: Kysely<Database>, workspaceId: string, leadId: string): Promise<void> {
  await db.deleteFrom('lead_activities').where('workspace_id', '=', workspaceId).where('lead_id', '=', leadId).execute();
  await db.deleteFrom('lead_viewers').where('workspace_id', '=', workspaceId).where('lead_id', '=', leadId).execute();
  await db.deleteFrom('leads').where('workspace_id', '=', workspaceId).where('id', '=', leadId).execute();
}
