/**
 * The workspace's day rollup beyond viewing: new leads and succeeded revenue per local day, added as
 * each lead or ledger entry is written, in its transaction, so get_analytics_summary and
 * get_analytics_daily read days instead of every lead and entry of the period (migration 0027). The
 * day is the local day in the workspace's time zone at the time of writing, as for viewing.
 *
 * Row locks follow the order every writer of these rows keeps (workspace day, then video day, then
 * the video's lifetime), so a capture and a fold never deadlock.
 */
import { sql, type Transaction } from 'kysely';
import { localDay } from '../../core/calendar/time-zone.ts';
import type { Database, OutcomeKind, OutcomeStatus } from '../../db/tables/index.ts';
import { workspaceTimeZone } from '../workspace/index.ts';
import { emptySketch } from './viewer-sketch.ts';

type Db = Transaction<Database> | import('kysely').Kysely<Database>;

async function localDayOf(db: Db, workspaceId: string, at: Date): Promise<string> {
  return localDay(at, await workspaceTimeZone(db, workspaceId));
}

/** One more lead created on the local day of `at`. */
export async function countNewLead(db: Db, workspaceId: string, at: Date): Promise<void> {
  const day = await localDayOf(db, workspaceId, at);
  await db
    .insertInto('workspace_daily_stats')
    .values({ workspace_id: workspaceId, day, viewer_sketch: emptySketch(), video_sketch: emptySketch(), new_leads: 1 })
    .onConflict((conflict) =>
      conflict.columns(['workspace_id', 'day']).doUpdateSet({ new_leads: sql<number>`workspace_daily_stats.new_leads + 1` }),
    )
    .execute();
}

export interface LedgerEntryWritten {
  workspaceId: string;
  kind: OutcomeKind;
  status: OutcomeStatus;
  currency: string;
  amount: number;
  occurredAt: Date;
}

/** A succeeded purchase or refund added to its local day's revenue (booked calls and other states are not revenue). */
export async function countLedgerEntry(db: Db, entry: LedgerEntryWritten): Promise<void> {
  if (entry.status !== 'succeeded' || (entry.kind !== 'purchase' && entry.kind !== 'refund')) return;
  const day = await localDayOf(db, entry.workspaceId, entry.occurredAt);
  const isPurchase = entry.kind === 'purchase';
  await db
    .insertInto('workspace_daily_revenue')
    .values({
      workspace_id: entry.workspaceId,
      day,
      currency: entry.currency,
      purchases: isPurchase ? 1 : 0,
      purchased: isPurchase ? entry.amount : 0,
      refunds: isPurchase ? 0 : 1,
      refunded: isPurchase ? 0 : entry.amount,
    })
    .onConflict((conflict) =>
      conflict.columns(['workspace_id', 'day', 'currency']).doUpdateSet({
        purchases: sql<number>`workspace_daily_revenue.purchases + excluded.purchases`,
        purchased: sql<number>`workspace_daily_revenue.purchased + excluded.purchased`,
        refunds: sql<number>`workspace_daily_revenue.refunds + excluded.refunds`,
        refunded: sql<number>`workspace_daily_revenue.refunded + excluded.refunded`,
      }),
    )
    .execute();
}
