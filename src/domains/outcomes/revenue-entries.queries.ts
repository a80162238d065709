/**
 * The ledger's money, for rebuilding the workspace's revenue days (viewing's day rollup, from
 * migration 0027 and the analytics benchmark).
 */
import type { Kysely } from 'kysely';
import type { Database, OutcomeRow } from '../../db/tables/index.ts';

/** The workspace's succeeded purchases and refunds: kind, currency, amount and when, in no order. */
export function succeededRevenueEntries(
  db: Kysely<Database>,
  workspaceId: string,
): Promise<(Pick<OutcomeRow, 'currency' | 'amount' | 'occurred_at'> & { kind: 'purchase' | 'refund' })[]> {
  return db
    .selectFrom('outcomes')
    .select(['kind', 'currency', 'amount', 'occurred_at'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'succeeded')
    .where('kind', 'in', ['purchase', 'refund'])
    .$narrowType<{ kind: 'purchase' | 'refund' }>()
    .execute();
}
