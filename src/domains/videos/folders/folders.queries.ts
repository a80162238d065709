/**
 * Folder reads and writes, each scoped to one workspace: a folder id from another workspace is
 * not_found. Names are unique per workspace whatever their case (index on lower(name)); a clash is
 * a conflict naming the folder that has the name.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { AppError } from '../../../core/errors.ts';
import { findInWorkspace } from '../../../core/find-in-workspace.ts';
import { type KeysetOrder, keysetPage } from '../../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../../core/lists/pagination.ts';
import type { Database } from '../../../db/tables/index.ts';
import type { Folder } from './folders.schemas.ts';

/** The folders table as `f`, the alias every folder query here reads it under. */
type FoldersAsF = Database & { f: Database['folders'] };

/** The folder's columns and its two video counts, on a query over `folders as f`. */
function withCounts<O>(query: SelectQueryBuilder<FoldersAsF, 'f', O>, workspaceId: string) {
  return query.select(['f.id', 'f.name', 'f.created_at', 'f.updated_at']).select((eb) => {
    // One count per folder, by the videos' (workspace_id, folder_id) index.
    const count = (archived: boolean) =>
      eb
        .selectFrom('videos as v')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .where('v.workspace_id', '=', workspaceId)
        .whereRef('v.folder_id', '=', 'f.id')
        .where('v.archived', '=', archived);
    return [count(false).as('video_count'), count(true).as('archived_video_count')];
  });
}

type CountedRow = {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  video_count: number | null;
  archived_video_count: number | null;
};

function toFolder(row: CountedRow): Folder {
  return {
    folder_id: row.id,
    name: row.name,
    video_count: Number(row.video_count ?? 0),
    archived_video_count: Number(row.archived_video_count ?? 0),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Name order, case-insensitive, then id: the order list_folders pages through. */
const BY_NAME: KeysetOrder = {
  direction: 'asc',
  columns: [
    { expression: 'lower(f.name)', type: 'text' },
    { expression: 'f.id', type: 'uuid' },
  ],
};

/** A page of folders in name order (case-insensitive), after the cursor's position. */
export async function listFolders(db: Kysely<Database>, workspaceId: string, page: PageRequest): Promise<KeysetRows<Folder>> {
  const filtered = db.selectFrom('folders as f').where('f.workspace_id', '=', workspaceId);
  const { rows, keys, total } = await keysetPage(filtered, (query) => withCounts(query, workspaceId), BY_NAME, page);
  return { rows: rows.map(toFolder), keys, total };
}

export async function getFolder(db: Kysely<Database>, workspaceId: string, folderId: string): Promise<Folder> {
  const row = await withCounts(
    db.selectFrom('folders as f').where('f.workspace_id', '=', workspaceId).where('f.id', '=', folderId),
    workspaceId,
  ).executeTakeFirst();
  if (!row) throw AppError.notFound('folder', folderId);
  return toFolder(row);
}

/** not_found unless the workspace has this folder: a list filtered by a folder names one that is there. */
export async function assertFolderExists(db: Kysely<Database>, workspaceId: string, folderId: string): Promise<void> {
  await findInWorkspace(db, 'folders', { workspaceId, id: folderId }, (query) => query.select('id'));
}

/** Locks the folder row for the rest of the transaction; not_found unless it is in this workspace. */
export async function lockFolder(db: Kysely<Database>, workspaceId: string, folderId: string): Promise<{ name: string }> {
  const row = await db
    .selectFrom('folders')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', folderId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw AppError.notFound('folder', folderId);
  return row;
}

export async function insertFolder(db: Kysely<Database>, workspaceId: string, name: string, now: Date): Promise<string> {
  await assertNameFree(db, workspaceId, name, null);
  const id = randomUUID();
  await uniqueName(name, () =>
    db.insertInto('folders').values({ id, workspace_id: workspaceId, name, created_at: now, updated_at: now }).execute(),
  );
  return id;
}

export async function renameFolder(db: Kysely<Database>, workspaceId: string, folderId: string, name: string, now: Date): Promise<void> {
  await assertNameFree(db, workspaceId, name, folderId);
  await uniqueName(name, () =>
    db.updateTable('folders').set({ name, updated_at: now }).where('workspace_id', '=', workspaceId).where('id', '=', folderId).execute(),
  );
}

/**
 * Takes every video out of the folder, then deletes it; run in the caller's transaction, so both
 * happen or neither. Answers how many videos were unfiled.
 */
export async function deleteFolder(db: Kysely<Database>, workspaceId: string, folderId: string, now: Date): Promise<number> {
  const unfiled = await db
    .updateTable('videos')
    .set({ folder_id: null, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('folder_id', '=', folderId)
    .executeTakeFirst();
  await db.deleteFrom('folders').where('workspace_id', '=', workspaceId).where('id', '=', folderId).execute();
  return Number(unfiled.numUpdatedRows);
}

/** conflict when another folder of the workspace already has this name, in any case. */
async function assertNameFree(db: Kysely<Database>, workspaceId: string, name: string, exceptId: string | null): Promise<void> {
  let query = db
    .selectFrom('folders')
    .select(['id', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  const taken = await query.executeTakeFirst();
  if (taken) throw nameTaken(name, taken);
}

/** A concurrent request that took the name first ends in the unique index: the same conflict. */
async function uniqueName(name: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if ((error as { code?: unknown }).code === '23505') throw nameTaken(name, null);
    throw error;
  }
}

function nameTaken(name: string, holder: { id: string; name: string } | null): AppError {
  const which = holder ? ` ("${holder.name}", ${holder.id})` : '';
  return new AppError(
    'conflict',
    `A folder named "${name}" already exists in this workspace${which}; folder names are unique whatever their case. ` +
      'Choose another name, or use that folder.',
    { reason: 'folder_name_taken', ...(holder ? { folder_id: holder.id } : {}) },
  );
}
