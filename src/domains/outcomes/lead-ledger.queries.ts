/**
 * A lead's entries in the ledger, for its journey (leads): read from the ledger itself, so an entry
 * always shows its value, whatever activity rows its writers also keep.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, OutcomeKind, OutcomeStatus } from '../../db/tables/index.ts';
import { videoTitles } from '../videos/index.ts';

export interface LeadLedgerEntry {
  id: string;
  kind: OutcomeKind;
  status: OutcomeStatus;
  amount: number;
  currency: string;
  occurred_at: Date;
  /** The video the entry names, or else its last touch (null when neither, or the video is gone). */
  video_id: string | null;
  title: string | null;
}

/** The lead's latest `limit` ledger entries, newest first, and how many it has in all. */
export async function leadLedgerEntries(
  db: Kysely<Database>,
  workspaceId: string,
  leadId: string,
  limit: number,
): Promise<{ rows: LeadLedgerEntry[]; total: number }> {
  const base = db.selectFrom('outcomes as o').where('o.workspace_id', '=', workspaceId).where('o.lead_id', '=', leadId);
  const [rows, count] = await Promise.all([
    base
      .leftJoin(videoTitles(db, workspaceId).as('v'), (join) =>
        join.on('v.id', '=', sql<string>`coalesce(o.video_id, o.last_touch_video_id)`),
      )
      .select(['o.id', 'o.kind', 'o.status', 'o.amount', 'o.currency', 'o.occurred_at', 'v.id as video_id', 'v.title'])
      .orderBy('o.occurred_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(limit)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

/** When the lead's first succeeded purchase happened, or null when it has bought nothing. */
export async function firstPurchaseAt(db: Kysely<Database>, workspaceId: string, leadId: string): Promise<Date | null> {
  const purchase = await db
    .selectFrom('outcomes')
    .select(sql<Date | null>`min(occurred_at)`.as('at'))
    .where('workspace_id', '=', workspaceId)
    .where('lead_id', '=', leadId)
    .where('kind', '=', 'purchase')
    .where('status', '=', 'succeeded')
    .executeTakeFirst();
  return purchase?.at ?? null;
}
