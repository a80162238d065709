/**
 * Raw viewing batches are kept for journeys and audits only as long as the operator's retention
 * setting says; the rollups (and so every analytics answer) do not depend on them. Deleted in
 * chunks, so pruning a long backlog never holds one huge transaction. A batch the fold has not
 * reached yet is kept whatever its age (a worker stopped for longer than the retention): it still has
 * to be counted.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

const CHUNK = 5000;

/** Deletes batches received more than `retentionDays` before `now`; returns how many went. */
export async function pruneViewingBatches(db: Kysely<Database>, retentionDays: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
  let total = 0;
  for (;;) {
    const deleted = await db
      .deleteFrom('viewing_batches')
      .where((eb) =>
        eb(
          eb.refTuple('session_id', 'sequence'),
          'in',
          eb
            .selectFrom('viewing_batches')
            .select(['session_id', 'sequence'])
            .where('received_at', '<', cutoff)
            .where(sql<boolean>`(fold_xid is null or (fold_xid, position) <= (select fold_xid, position from viewing_fold))`)
            .limit(CHUNK)
            .$asTuple('session_id', 'sequence'),
        ),
      )
      .executeTakeFirst();
    const count = Number(deleted.numDeletedRows);
    total += count;
    if (count < CHUNK) return total;
  }
}
