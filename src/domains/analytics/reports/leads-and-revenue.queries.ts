/**
 * What list_changes says of leads and revenue: new leads and succeeded ledger entries per period
 * (the leads and outcomes areas' reads), and the biggest purchases, each with the title of the video
 * it is attributed to: the ledger's biggest entry per currency joined to the videos' titles in one
 * statement. Only succeeded entries count (docs/analytics.md, "Revenue").
 */
import type { Kysely } from 'kysely';
import type { Boundaries } from '../../../core/calendar/period-buckets.ts';
import type { Database } from '../../../db/tables/index.ts';
import { newLeadCounts } from '../../leads/index.ts';
import { biggestPurchasesByCurrency, type OutcomeBucket, succeededOutcomes } from '../../outcomes/index.ts';
import { workspaceVideos } from '../../videos/index.ts';

export interface LeadsAndRevenue {
  /** Leads created in each period: index n − 1 holds bucket n. */
  newLeads: number[];
  /** Succeeded ledger entries per period, kind and currency. */
  outcomes: OutcomeBucket[];
  /** The biggest purchase of each currency in the last period. */
  biggest: BiggestPurchase[];
}

/** New leads and succeeded entries in each period, and the biggest purchases (of the first `currencies` currencies) of the last. */
export async function leadsAndRevenue(
  db: Kysely<Database>,
  workspaceId: string,
  boundaries: Boundaries,
  currencies: number,
): Promise<LeadsAndRevenue> {
  const [newLeads, outcomes, biggest] = await Promise.all([
    newLeadCounts(db, workspaceId, boundaries),
    succeededOutcomes(db, workspaceId, boundaries),
    biggestPurchases(db, workspaceId, boundaries.at(-2) as Date, boundaries.at(-1) as Date, currencies),
  ]);
  return { newLeads, outcomes, biggest };
}

export interface BiggestPurchase {
  outcome_id: string;
  value: number;
  currency: string;
  lead_id: string | null;
  video_id: string | null;
  title: string | null;
  occurred_at: Date;
}

/**
 * The biggest succeeded purchase of each currency between two instants (ties: the latest), with the
 * video it is attributed to by last touch, for the first `currencies` currency codes. Amounts in
 * different currencies are never compared.
 */
async function biggestPurchases(
  db: Kysely<Database>,
  workspaceId: string,
  from: Date,
  to: Date,
  currencies: number,
): Promise<BiggestPurchase[]> {
  // The biggest of each currency first, then the titles of those few videos.
  const rows = await db
    .selectFrom(biggestPurchasesByCurrency(db, workspaceId, from, to, currencies).as('b'))
    .leftJoin(workspaceVideos(db, workspaceId).as('v'), 'v.id', 'b.video_id')
    .select(['b.outcome_id', 'b.value', 'b.currency', 'b.lead_id', 'b.video_id', 'v.title', 'b.occurred_at'])
    .orderBy('b.currency')
    .execute();
  return rows.map((row) => ({ ...row, value: Number(row.value) }));
}
