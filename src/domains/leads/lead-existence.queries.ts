/** Whether a lead id names a lead of the workspace, for another area's write that refers to one. */
import type { Kysely } from 'kysely';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database } from '../../db/tables/index.ts';

/** `not_found` unless the workspace has this lead (another workspace's lead included). */
export async function assertLeadInWorkspace(db: Kysely<Database>, workspaceId: string, leadId: string): Promise<void> {
  await findInWorkspace(db, 'leads', { workspaceId, id: leadId }, (query) => query.select('id'));
}
