/**
 * Erasing a lead keeps their ledger entries (erase_lead): revenue happened, and the totals must not
 * change. Each entry loses its lead, and its description when that mentions them (a payment's
 * description may carry the buyer's name); amounts, currencies, dates, kinds and video attribution stay.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { mentionsAny } from '../../db/text-mentions.ts';

/** Detaches the lead's entries; `needles` (db/text-mentions.ts) are the person's details. Answers how many entries. */
export async function detachLeadFromLedger(
  db: Kysely<Database>,
  workspaceId: string,
  leadId: string,
  needles: readonly string[],
): Promise<number> {
  const result = await db
    .updateTable('outcomes')
    .set((eb) => ({
      lead_id: null,
      description: eb
        .case()
        .when(mentionsAny(eb.ref('description'), needles))
        .then(null)
        .else(eb.ref('description'))
        .end(),
    }))
    .where('workspace_id', '=', workspaceId)
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
