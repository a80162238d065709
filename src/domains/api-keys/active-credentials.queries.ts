/** How many keys a workspace has that still work, as get_workspace reports its usage. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** The workspace's active credentials (not revoked, not expired at `now`), counted. */
export async function countActiveCredentials(db: Kysely<Database>, workspaceId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('credentials')
    .select((eb) => eb.fn.countAll<number>().as('active'))
    .where('workspace_id', '=', workspaceId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.active);
}
