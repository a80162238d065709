/** Whether a lead id names a lead of the workspace, for another area's write that refers to one. */
import type { Kysely } from 'kysely';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database } from '../../db/tables/index.ts';

/** `not_found` unless the workspace has this lead (another workspace's lead included). */
export async function assertLeadInWorkspace(db: Kysely<Database>, workspaceId: string, leadId: string): Promise<void> {
  await findInWorkspace(db, 'leads', { workspaceId, id: leadId }, (query) => query.select('id'));
}

/**
 * Takes the lead's row for the rest of the transaction, `not_found` unless the workspace has it. A
 * write that will change the lead (its engagement, its status) takes this first, before any other
 * row it writes, so two writes for one lead queue here instead of each holding a row the other needs
 * (issue 26: purchases for one lead deadlocked on the day's revenue counter and the lead). NO KEY
 * UPDATE, the lock an UPDATE of the lead takes anyway, leaves rows that only refer to the lead
 * (activities, outcomes) free to be written by others meanwhile.
 */
export async function lockLeadForChange(db: Kysely<Database>, workspaceId: string, leadId: string): Promise<void> {
  await findInWorkspace(db, 'leads', { workspaceId, id: leadId }, (query) => query.select('id').forNoKeyUpdate());
}
