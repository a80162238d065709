/**
 * The ledger entries bookings hold (kind booked_call, outcome_id on the booking): their value, shown
 * with each booking, and their cancellation with the booking. Always within one workspace.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** The workspace's ledger entries' ids, amounts and currencies, to join as a derived table (`.as('o')`) in another area's statement. */
export function ledgerEntryValues(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom('outcomes')
    .select(['outcomes.id', 'outcomes.amount', 'outcomes.currency'])
    .where('outcomes.workspace_id', '=', workspaceId);
}

/** Marks a canceled booking's booked_call entry `canceled`, so it no longer counts as a booked call. */
export async function cancelBookedCall(db: Kysely<Database>, workspaceId: string, outcomeId: string): Promise<void> {
  await db
    .updateTable('outcomes')
    .set({ status: 'canceled' })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', outcomeId)
    .where('kind', '=', 'booked_call')
    .execute();
}
