/** The folder a seeded library files its videos in: made once, then found again by name. */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

/**
 * The id of the workspace's folder named `name` (whatever its case), made now if there is none: one
 * upsert on the (workspace_id, lower(name)) index, so seeding a workspace twice reuses its folders.
 */
export async function ensureFolder(db: Kysely<Database>, workspaceId: string, name: string, now: Date): Promise<string> {
  const row = await db
    .insertInto('folders')
    .values({ id: randomUUID(), workspace_id: workspaceId, name, created_at: now })
    .onConflict((oc) => oc.expression(sql`workspace_id, lower(name)`).doUpdateSet({ name: sql`folders.name` }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
