/**
 * Erasing a person from the events outbox (erase_lead). The outbox keeps every event it recorded, and
 * lead, booking, ledger and route events carry the lead's id and contact fields; the ones that mention
 * the person are deleted, so no event not yet delivered sends them and no row keeps them. What webhooks
 * already delivered stays with their receivers, out of the service's reach (docs/people.md).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './tables/index.ts';
import { mentionsAny } from './text-mentions.ts';

/**
 * Deletes the workspace's events of these types whose data mentions any needle (text-mentions.ts);
 * answers their ids, so the deliveries made of them can go too. Types narrow the search to the events
 * that can hold a person (an index covers workspace and type).
 */
export async function eraseEventsMentioning(
  db: Kysely<Database>,
  workspaceId: string,
  types: readonly string[],
  needles: readonly string[],
): Promise<string[]> {
  if (types.length === 0 || needles.length === 0) return [];
  const rows = await db
    .deleteFrom('events')
    .where('workspace_id', '=', workspaceId)
    .where('type', 'in', [...types])
    .where(mentionsAny(sql<string>`events.data::text`, needles))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}
