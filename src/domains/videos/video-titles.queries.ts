/**
 * What other areas' reports say of a video beside their numbers: its title (and duration). Every
 * read is scoped to the workspace; another workspace's video is not_found, or simply absent.
 */
import type { Kysely } from 'kysely';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database } from '../../db/tables/index.ts';

export interface TitledVideo {
  video_id: string;
  title: string;
  duration_seconds: number | null;
}

/** The video of this workspace with its title and duration; not_found otherwise. */
export async function findVideoTitle(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<TitledVideo> {
  return findInWorkspace(db, 'videos', { workspaceId, id: videoId }, (query) =>
    query.select(['id as video_id', 'title', 'duration_seconds']),
  );
}

/** The videos of this workspace among the ids, with their titles; the caller checks none is missing. */
export async function videoTitles(db: Kysely<Database>, workspaceId: string, videoIds: readonly string[]): Promise<TitledVideo[]> {
  return db
    .selectFrom('videos')
    .select(['id as video_id', 'title', 'duration_seconds'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...videoIds])
    .execute();
}

/**
 * Every video of the workspace with its title (`id`, `title`), as a subquery to join a report's rows
 * to in the same statement: `.innerJoin(workspaceVideoTitles(db, id).as('v'), 'v.id', 'd.video_id')`.
 */
export function workspaceVideoTitles(db: Kysely<Database>, workspaceId: string) {
  return db.selectFrom('videos').select(['id', 'title']).where('workspace_id', '=', workspaceId);
}
