/**
 * The ledger as the analytics reads it: only succeeded entries count (docs/analytics.md, "Revenue").
 * Periods arrive as instants (where local days begin in the workspace time zone), so each read is
 * one range scan of an index on (workspace_id, time): outcomes_occurred_idx, or
 * outcomes_last_touch_idx (migration 0015) for one video. Results come back grouped per period with
 * `width_bucket` (bucketOf).
 */
import type { Kysely } from 'kysely';
import { type Boundaries, bucketOf } from '../../core/calendar/period-buckets.ts';
import type { Database, OutcomeKind } from '../../db/tables/index.ts';

export interface OutcomeBucket {
  bucket: number;
  kind: OutcomeKind;
  currency: string;
  /** Succeeded entries of this kind and currency in the period. */
  count: number;
  /** Their amounts summed, in minor units. */
  amount: number;
}

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

/**
 * The biggest succeeded purchase of each currency between two instants (ties: the latest), for the
 * first `currencies` currency codes, as a subquery (outcome_id, value, currency, lead_id, video_id
 * attributed by last touch, occurred_at) a report joins the videos' titles to in the same statement.
 */
export function biggestPurchasesByCurrency(db: Kysely<Database>, workspaceId: string, from: Date, to: Date, currencies: number) {
  return db
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
    .limit(currencies);
}
