/**
 * Reads of the events outbox for what an area reports about its own past (list_changes names the
 * videos that became ready or failed), rather than for delivery: the outbox is the one place that
 * keeps when each change happened.
 */
import type { Kysely } from 'kysely';
import type { Database } from './tables/index.ts';

/** The workspace's events of these types recorded at or after `since`, newest first, at most `limit`. */
export async function recentEvents(db: Kysely<Database>, workspaceId: string, types: readonly string[], since: Date, limit: number) {
  return db
    .selectFrom('events')
    .select(['type', 'data', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'in', [...types])
    .where('created_at', '>=', since)
    .orderBy('sequence', 'desc')
    .limit(limit)
    .execute();
}
