/**
 * Engagement kept as viewing arrives: each collected batch of a browser linked to a lead adds the
 * points it earned (sessionPoints) to that lead, in the batch's transaction, and a lead whose score
 * crosses the engaged threshold moves from `new` to `engaged` with a `status_changed` activity and
 * a `lead.updated` event. A browser with no lead costs one lookup on lead_viewers' primary key.
 * Other things a browser does that count for its leads (a choice in a route) credit them the same
 * way, through creditLeadsOfViewer.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { sessionPoints } from './engagement-score.ts';
import { addLeadEngagement, applyScoreStatus } from './lead-records.queries.ts';

export interface ViewingProgress {
  workspaceId: string;
  viewerId: string;
  /** What the batch added to its session (see sessionPoints). */
  change: Parameters<typeof sessionPoints>[0];
  at: Date;
}

export async function creditViewingToLeads(db: Kysely<Database>, progress: ViewingProgress): Promise<void> {
  const points = sessionPoints(progress.change);
  if (points <= 0) return;
  await creditLeadsOfViewer(db, { workspaceId: progress.workspaceId, viewerId: progress.viewerId, points, at: progress.at });
}

/** Adds `points` to every lead the browser is linked to, moving each one's status when its score says so. */
export async function creditLeadsOfViewer(
  db: Kysely<Database>,
  credit: { workspaceId: string; viewerId: string; points: number; at: Date },
): Promise<void> {
  const links = await db
    .selectFrom('lead_viewers')
    .select('lead_id')
    .where('workspace_id', '=', credit.workspaceId)
    .where('viewer_id', '=', credit.viewerId)
    .execute();
  for (const { lead_id: leadId } of links) {
    await addLeadEngagement(db, { leadId, points: credit.points, at: credit.at });
    await applyScoreStatus(db, credit.workspaceId, leadId, credit.at);
  }
}
