/**
 * Engagement kept as viewing is counted: each fold of a session of a browser linked to a lead adds
 * the points it earned (sessionPoints) to that lead, in the fold's transaction, and a lead whose score
 * crosses the engaged threshold moves from `new` to `engaged` with a `status_changed` activity and
 * a `lead.updated` event. One lookup on lead_viewers finds the leads of every browser in a fold.
 * Other things a browser does that count for its leads (a choice in a route) credit them the same
 * way, through creditLeadsOfViewer.
 */
import { type Kysely, sql } from 'kysely';
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

/** Credits the leads of each session's browser with what the session earned in a fold: one lookup for all the browsers, then each linked lead. */
export async function creditViewingToLeadsOfMany(db: Kysely<Database>, progress: readonly ViewingProgress[]): Promise<void> {
  const earning = progress
    .map((one) => ({ ...one, points: sessionPoints(one.change) }))
    .filter((one) => one.points > 0 && one.viewerId !== '');
  if (earning.length === 0) return;
  const browsers = earning.map((one) => ({ workspace_id: one.workspaceId, viewer_id: one.viewerId }));
  const { rows: links } = await sql<{ workspace_id: string; viewer_id: string; lead_id: string }>`
    select distinct l.workspace_id, l.viewer_id, l.lead_id
    from lead_viewers l
    join jsonb_to_recordset(${JSON.stringify(browsers)}::jsonb) as b(workspace_id uuid, viewer_id text)
      on l.workspace_id = b.workspace_id and l.viewer_id = b.viewer_id
    order by l.lead_id`.execute(db);
  if (links.length === 0) return;
  const leadsOf = new Map<string, string[]>();
  for (const link of links) {
    const key = `${link.workspace_id} ${link.viewer_id}`;
    leadsOf.set(key, [...(leadsOf.get(key) ?? []), link.lead_id]);
  }
  for (const one of earning) {
    for (const leadId of leadsOf.get(`${one.workspaceId} ${one.viewerId}`) ?? []) {
      await addLeadEngagement(db, { leadId, points: one.points, at: one.at });
      await applyScoreStatus(db, one.workspaceId, leadId, one.at);
    }
  }
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
