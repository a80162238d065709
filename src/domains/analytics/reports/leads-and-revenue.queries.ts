/**
 * Analytics reads of leads and the revenue ledger. Periods arrive as instants (where local days
 * begin in the workspace time zone), so each read is one range scan of an index on
 * (workspace_id, time): outcomes_occurred_idx, outcomes_last_touch_idx (migration 0015) for one
 * video, leads_created_idx. Results come back grouped per period with `width_bucket`, which sorts
 * an instant into the boundaries given: no time-zone arithmetic in SQL, whatever zone the
 * workspace keeps. Only succeeded entries count (docs/analytics.md, "Revenue").
 */
import { type Kysely, sql } from 'kysely';
import type { Database, OutcomeKind } from '../../../db/tables/index.ts';

/**
 * The boundaries of consecutive periods: [start of the first, start of the second, …, end of the
 * last]. Bucket n (from 1) is the period between boundaries n − 1 and n.
 */
export type Boundaries = readonly Date[];

export interface OutcomeBucket {
  bucket: number;
  kind: OutcomeKind;
  currency: string;
  /** Succeeded entries of this kind and currency in the period. */
  count: number;
  /** Their amounts summed, in minor units. */
  amount: number;
}

/** Which period an instant falls in: 1 for the first, 0 before it, boundaries.length − 1 after the last. */
export const bucketOf = (column: string, boundaries: Boundaries) =>
  sql<number>`width_bucket(${sql.ref(column)}, ${sql.val(boundaries.map((at) => at.toISOString()))}::timestamptz[])`;

/**
 * Succeeded ledger entries per period, kind and currency; with `lastTouchVideoId`, only those
 * attributed to that video by last touch.
 */
export async function succeededOutcomes(
  db: Kysely<Database>,
  workspaceId: string,
  boundaries: Boundaries,
  lastTouchVideoId?: string,
): Promise<OutcomeBucket[]> {
  let query = db
    .selectFrom('outcomes')
    .select((eb) => [
      bucketOf('occurred_at', boundaries).as('bucket'),
      'kind',
      'currency',
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>('amount').as('amount'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'succeeded')
    .where('occurred_at', '>=', boundaries[0] as Date)
    .where('occurred_at', '<', boundaries.at(-1) as Date);
  if (lastTouchVideoId !== undefined) query = query.where('last_touch_video_id', '=', lastTouchVideoId);
  const rows = await query.groupBy(['bucket', 'kind', 'currency']).execute();
  return rows.map((row) => ({
    bucket: Number(row.bucket),
    kind: row.kind,
    currency: row.currency,
    count: Number(row.count),
    amount: Number(row.amount),
  }));
}

/** Leads created in each period: index n − 1 holds bucket n. */
export async function newLeadCounts(db: Kysely<Database>, workspaceId: string, boundaries: Boundaries): Promise<number[]> {
  const rows = await db
    .selectFrom('leads')
    .select((eb) => [bucketOf('created_at', boundaries).as('bucket'), eb.fn.countAll<number>().as('count')])
    .where('workspace_id', '=', workspaceId)
    .where('created_at', '>=', boundaries[0] as Date)
    .where('created_at', '<', boundaries.at(-1) as Date)
    .groupBy('bucket')
    .execute();
  const counts = boundaries.slice(1).map(() => 0);
  for (const row of rows) counts[Number(row.bucket) - 1] = Number(row.count);
  return counts;
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
export async function biggestPurchases(
  db: Kysely<Database>,
  workspaceId: string,
  from: Date,
  to: Date,
  currencies: number,
): Promise<BiggestPurchase[]> {
  // The biggest of each currency first, then the titles of those few videos.
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('outcomes')
        .distinctOn('currency')
        .select(['id as outcome_id', 'amount as value', 'currency', 'lead_id', 'last_touch_video_id as video_id', 'occurred_at'])
        .where('workspace_id', '=', workspaceId)
        .where('kind', '=', 'purchase')
        .where('status', '=', 'succeeded')
        .where('occurred_at', '>=', from)
        .where('occurred_at', '<', to)
        .orderBy('currency')
        .orderBy('amount', 'desc')
        .orderBy('occurred_at', 'desc')
        .orderBy('id', 'desc')
        .limit(currencies)
        .as('b'),
    )
    .leftJoin('videos as v', (join) => join.onRef('v.id', '=', 'b.video_id').on('v.workspace_id', '=', workspaceId))
    .select(['b.outcome_id', 'b.value', 'b.currency', 'b.lead_id', 'b.video_id', 'v.title', 'b.occurred_at'])
    .orderBy('b.currency')
    .execute();
  return rows.map((row) => ({ ...row, value: Number(row.value) }));
}
