/** The viewing sessions of some videos, in the order they were last seen. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/**
 * The workspace's viewing sessions of the given videos, by when each was last seen (then viewer):
 * how far each got, for the demo seed to decide who reached a video's lead form.
 */
export function viewingSessionsOfVideos(db: Kysely<Database>, workspaceId: string, videoIds: readonly string[]) {
  return db
    .selectFrom('viewing_sessions')
    .select(['id', 'video_id', 'viewer_id', 'watched', 'duration_seconds', 'last_seen_at'])
    .where('workspace_id', '=', workspaceId)
    .where('video_id', 'in', videoIds)
    .orderBy('last_seen_at')
    .orderBy('viewer_id')
    .execute();
}
