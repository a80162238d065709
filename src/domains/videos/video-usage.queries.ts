/** How much of its library a workspace uses, as get_workspace reports it. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

export interface VideoUsage {
  total: number;
  ready: number;
  archived: number;
  /** The uploaded files' sizes summed. */
  bytes: number;
}

/** The workspace's videos counted (all, ready, archived) and their files' bytes, in one scan. */
export async function videoUsage(db: Kysely<Database>, workspaceId: string): Promise<VideoUsage> {
  const row = await db
    .selectFrom('videos')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.countAll<number>().filterWhere('archived', '=', true).as('archived'),
      eb.fn.countAll<number>().filterWhere('status', '=', 'ready').as('ready'),
      eb.fn.coalesce(eb.fn.sum<number>('file_size'), eb.lit(0)).as('bytes'),
    ])
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), ready: Number(row.ready), archived: Number(row.archived), bytes: Number(row.bytes) };
}
