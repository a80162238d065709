/**
 * What other areas read of a workspace row, and the lock they take on it. A count with a ceiling
 * (api keys, calendar feeds, slugs) or a write that must not race a change of the time zone holds
 * the row `for no key update`: inserts that reference it do not wait on that lock, and two such
 * writers of one workspace take their turns.
 */
import type { Kysely } from 'kysely';
import type { Database, WorkspaceRow } from '../../db/tables/index.ts';

export type WorkspaceFacts = Pick<WorkspaceRow, 'name' | 'plan' | 'timezone'>;

/** The workspace's name, plan and time zone; undefined when there is no such workspace. */
export async function workspaceFacts(db: Kysely<Database>, workspaceId: string): Promise<WorkspaceFacts | undefined> {
  return db.selectFrom('workspaces').select(['name', 'plan', 'timezone']).where('id', '=', workspaceId).executeTakeFirst();
}

/** The names of several workspaces in one statement (a person's workspace switcher), by id; missing ids are left out. */
export async function workspaceNames(db: Kysely<Database>, workspaceIds: readonly string[]): Promise<Map<string, string>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await db.selectFrom('workspaces').select(['id', 'name']).where('id', 'in', workspaceIds).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The workspace's IANA time zone (UTC when there is no such workspace). */
export async function workspaceTimeZone(db: Kysely<Database>, workspaceId: string): Promise<string> {
  return (await workspaceFacts(db, workspaceId))?.timezone ?? 'UTC';
}

/**
 * Locks the workspace row until the caller's transaction ends (`for no key update`) and returns its
 * facts as they are under the lock; undefined when there is no such workspace.
 */
export async function lockWorkspace(db: Kysely<Database>, workspaceId: string): Promise<WorkspaceFacts | undefined> {
  return db.selectFrom('workspaces').select(['name', 'plan', 'timezone']).where('id', '=', workspaceId).forNoKeyUpdate().executeTakeFirst();
}
