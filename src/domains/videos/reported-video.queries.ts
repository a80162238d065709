/** The video an analytics report is about, as the report names it. */
import type { Kysely } from 'kysely';
import { findInWorkspace } from '../../core/find-in-workspace.ts';
import type { Database } from '../../db/tables/index.ts';

export interface ReportedVideo {
  video_id: string;
  title: string;
  duration_seconds: number | null;
}

/** The video of this workspace with its title and duration; not_found otherwise, whoever owns the id. */
export async function reportedVideo(db: Kysely<Database>, workspaceId: string, videoId: string): Promise<ReportedVideo> {
  return findInWorkspace(db, 'videos', { workspaceId, id: videoId }, (query) =>
    query.select(['id as video_id', 'title', 'duration_seconds']),
  );
}
