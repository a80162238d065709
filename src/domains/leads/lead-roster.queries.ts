/** The workspace's leads as a whole: how many there are, and all of them in the order they were captured. */
import type { Kysely } from 'kysely';
import type { Database, LeadRow } from '../../db/tables/index.ts';

/** How many leads the workspace has. */
export async function countLeads(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every lead of the workspace, oldest capture first (then by email), with who they are and where they came from. */
export function leadsByCaptureTime(
  db: Kysely<Database>,
  workspaceId: string,
): Promise<Pick<LeadRow, 'id' | 'email' | 'first_name' | 'last_name' | 'name' | 'source_video_id' | 'created_at'>[]> {
  return db
    .selectFrom('leads')
    .select(['id', 'email', 'first_name', 'last_name', 'name', 'source_video_id', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('email')
    .execute();
}
