/**
 * Leads created per period, as the analytics reads them: one range scan of leads_created_idx, the
 * periods given as instants (where local days begin in the workspace time zone) and the rows grouped
 * per period with `width_bucket` (bucketOf).
 */
import type { Kysely } from 'kysely';
import { type Boundaries, bucketOf } from '../../core/calendar/period-buckets.ts';
import type { Database } from '../../db/tables/index.ts';

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
