/**
 * What the viewing fold needs of the videos of new sessions: each one's length, and its workspace's
 * time zone (sessions and rollups count by local day), in one statement.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { workspaceFactsTable } from '../workspace/index.ts';

export interface VideoLength {
  id: string;
  durationSeconds: number;
  timeZone: string;
}

/**
 * The length and workspace time zone of each of these videos that has a length, whatever its state
 * now (the fold's batches were accepted when it was servable). By id alone: the fold spans workspaces.
 */
export async function videoLengthsAndZones(db: Kysely<Database>, videoIds: readonly string[]): Promise<VideoLength[]> {
  if (videoIds.length === 0) return [];
  const rows = await db
    .selectFrom('videos')
    .innerJoin(workspaceFactsTable(db).as('workspaces'), 'workspaces.id', 'videos.workspace_id')
    .select(['videos.id', 'videos.duration_seconds', 'workspaces.timezone'])
    .where('videos.id', 'in', [...new Set(videoIds)])
    .execute();
  return rows.flatMap((row) =>
    row.duration_seconds ? [{ id: row.id, durationSeconds: row.duration_seconds, timeZone: row.timezone }] : [],
  );
}
