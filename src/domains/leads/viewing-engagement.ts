/**
 * Engagement kept as viewing arrives: each collected batch of a browser linked to a lead adds the
 * points it earned (sessionPoints) to that lead, in the batch's transaction, and a lead whose score
 * crosses the engaged threshold moves from `new` to `engaged` with a `status_changed` activity and
 * a `lead.updated` event. A browser with no lead costs one lookup on lead_viewers' primary key.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { recordEvent } from '../../events/outbox.ts';
import { engagementScore, sessionPoints } from './engagement-score.ts';
import { addLeadEngagement, leadSnapshot, recordLeadActivity } from './lead-records.queries.ts';
import { AUTOMATIC_AUTHOR, automaticStatus } from './lead-status.ts';

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
  const links = await db
    .selectFrom('lead_viewers')
    .select('lead_id')
    .where('workspace_id', '=', progress.workspaceId)
    .where('viewer_id', '=', progress.viewerId)
    .execute();
  for (const { lead_id: leadId } of links) {
    await addLeadEngagement(db, { leadId, points, at: progress.at });
    await applyScoreStatus(db, progress.workspaceId, leadId, progress.at);
  }
}

/** Moves a lead to `engaged` when its score now reaches the threshold (lead-status.ts). */
async function applyScoreStatus(db: Kysely<Database>, workspaceId: string, leadId: string, at: Date): Promise<void> {
  const lead = await db
    .selectFrom('leads')
    .select(['status', 'engagement_points', 'engagement_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', leadId)
    .executeTakeFirst();
  if (!lead) return;
  const score = engagementScore({ points: lead.engagement_points, at: lead.engagement_at }, at);
  const next = automaticStatus(lead.status, { kind: 'score', score });
  if (!next) return;
  await db.updateTable('leads').set({ status: next, updated_at: at }).where('id', '=', leadId).execute();
  await recordLeadActivity(db, {
    workspaceId,
    leadId,
    kind: 'status_changed',
    data: { from: lead.status, to: next, author: AUTOMATIC_AUTHOR },
    at,
  });
  await recordEvent(db, {
    workspaceId,
    type: 'lead.updated',
    data: { lead_id: leadId, changed: ['status'], lead: await leadSnapshot(db, workspaceId, leadId, at) },
    at,
  });
}
