/** Names of users by id, for other areas that show who did something (the member who minted a key). */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

export async function userNames(db: Kysely<Database>, userIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
