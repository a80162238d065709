/**
 * The settings of a workspace that other areas' statements join on their own rows: its plan (what
 * a public page may still serve, whether webhooks are delivered), its time zone and whether
 * personal fields are masked. A derived table for one statement, so a join stays a join.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/**
 * Every workspace's id, plan, time zone and PII masking, to join as `.as('w')` on the caller's
 * `workspace_id`. Not narrowed to one workspace: the caller's row is (a public lookup by an
 * unguessable id knows its workspace only through that row).
 */
export function workspaceSettings(db: Kysely<Database>) {
  return db.selectFrom('workspaces').select(['workspaces.id', 'workspaces.plan', 'workspaces.timezone', 'workspaces.mask_pii']);
}
