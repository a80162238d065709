/**
 * The browsers that viewed a video, for list_leads' video filter (a lead "watched it" when one of
 * its browsers did): a table to join in the leads list's own statement. PostgreSQL flattens the
 * subquery into a join on `viewing_sessions`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';

/** The viewer id of each view (a session that counts as one) of the video, to join by viewer_id (`.as('s')`). */
export function viewersOfVideo(db: Kysely<Database>, workspaceId: string, videoId: string) {
  return db
    .selectFrom('viewing_sessions')
    .select('viewer_id')
    .where('workspace_id', '=', workspaceId)
    .where('video_id', '=', videoId)
    .where('is_view', '=', true);
}
