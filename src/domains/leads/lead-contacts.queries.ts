/**
 * A lead's email and names for other areas' rows that name a lead (an outcome's buyer): a table to
 * join in the reader's own statement. PostgreSQL flattens the subquery into a join on `leads`.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, LeadRow } from '../../db/tables/index.ts';

/** The workspace's leads as (id, email, name, first_name, last_name), to join by id (`.as('l')`). */
export function leadContacts(
  db: Kysely<Database>,
  workspaceId: string,
): SelectQueryBuilder<Database, 'leads', Pick<LeadRow, 'id' | 'email' | 'name' | 'first_name' | 'last_name'>> {
  return db.selectFrom('leads').select(['id', 'email', 'name', 'first_name', 'last_name']).where('workspace_id', '=', workspaceId);
}
