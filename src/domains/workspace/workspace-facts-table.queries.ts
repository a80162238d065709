/**
 * The workspace facts as a table other areas join to rows that carry a workspace id (a video's
 * workspace time zone, the plan beside an event type), so a read that needs them stays one
 * statement. PostgreSQL flattens the subquery: the plan is that of a join on `workspaces`.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, WorkspaceRow } from '../../db/tables/index.ts';

type WorkspaceFactsRow = Pick<WorkspaceRow, 'id' | 'name' | 'plan' | 'timezone'>;

/**
 * Every workspace's id, name, plan and time zone, to join by id (`.as('w')`). Unfiltered: the
 * caller's join names the workspace, often one found through a public id (a video's).
 */
export function workspaceFactsTable(db: Kysely<Database>): SelectQueryBuilder<Database, 'workspaces', WorkspaceFactsRow> {
  return db.selectFrom('workspaces').select(['id', 'name', 'plan', 'timezone']);
}
