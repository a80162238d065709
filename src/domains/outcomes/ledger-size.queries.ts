/** How big the workspace's ledger is. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** How many entries (outcomes, refunds included) the workspace's ledger holds. */
export async function countLedgerEntries(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('outcomes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
