/** The routes a workspace shows the public now. */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

/** The ids of the workspace's live routes, by name. */
export async function liveRouteIds(db: Kysely<Database>, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('routes')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'live')
    .orderBy('name')
    .execute();
  return rows.map((row) => row.id);
}
