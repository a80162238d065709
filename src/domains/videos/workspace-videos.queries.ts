/**
 * The workspace's videos as other areas read them: a route's steps, a channel's cards, a booking's
 * source. What they show of a video is its title and description, whether and how it can play
 * (status, archived, poster, length, size) and when it was made. Always within one workspace.
 */
import { type Kysely, sql } from 'kysely';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database } from '../../db/tables/index.ts';

/** Videos videosTitled answers at most. */
const MAX_TITLED = 200;

/**
 * The workspace's videos with the columns other areas show, to narrow further or to join as a
 * derived table (`.as('v')`) in another area's statement, so a join stays one statement.
 */
export function workspaceVideos(db: Kysely<Database>, workspaceId: string) {
  return db
    .selectFrom('videos')
    .select([
      'videos.id',
      'videos.title',
      'videos.description',
      'videos.status',
      'videos.archived',
      'videos.has_poster',
      'videos.duration_seconds',
      'videos.width',
      'videos.height',
      'videos.created_at',
    ])
    .where('videos.workspace_id', '=', workspaceId);
}

/** Those of these ids that are videos of the workspace (ids must be well formed); one query for any number of them. */
export async function videosWithIds(db: Kysely<Database>, workspaceId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return workspaceVideos(db, workspaceId)
    .where(sql<boolean>`videos.id = any(${[...ids]}::uuid[])`)
    .execute();
}

/** The workspace's videos whose lowercased title is one of `lowercasedTitles`, newest first (at most 200). */
export async function videosTitled(db: Kysely<Database>, workspaceId: string, lowercasedTitles: readonly string[]) {
  if (lowercasedTitles.length === 0) return [];
  return workspaceVideos(db, workspaceId)
    .where(sql<string>`lower(videos.title)`, 'in', [...lowercasedTitles])
    .orderBy('videos.created_at', 'desc')
    .orderBy('videos.id')
    .limit(MAX_TITLED)
    .execute();
}

/** Throws not_found unless the workspace has this video (another workspace's id reads the same). */
export async function assertVideoInWorkspace(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<void> {
  await findInWorkspace(db, 'videos', { workspaceId, id: videoId }, (query) => query.select('id'));
}
