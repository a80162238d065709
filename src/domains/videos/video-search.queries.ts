/**
 * The pieces of SQL the searches read videos with (search, search_transcripts), embedded in their
 * statements so each search stays one statement. Archived videos are left out unless asked for, as
 * list_videos leaves them out.
 */
import { type RawBuilder, sql } from 'kysely';

/**
 * The workspace's unarchived videos (as `v`: id, title, description, tags, and `ready`) meeting
 * `condition`, written over `v`, at most `limit`: one branch of the video search, read along
 * whichever index the condition matches.
 */
export function unarchivedVideosMatching(workspaceId: string, condition: RawBuilder<unknown>, limit: number): RawBuilder<unknown> {
  return sql`select v.id, v.title, v.description, v.tags, v.status = 'ready' as ready from videos v
    where v.workspace_id = ${workspaceId} and not v.archived and ${condition}
    limit ${limit}`;
}

/**
 * The title, archived flag and status of the video with the id `videoId` (a column of the outer
 * query), for a lateral join: looked up by its key alone, as the row it is joined to is already of the
 * workspace. Archived ones are left out unless `includeArchived`.
 */
export function videoListingByKey(videoId: RawBuilder<unknown>, includeArchived: boolean): RawBuilder<unknown> {
  const archived = includeArchived ? sql`` : sql`and not v.archived`;
  return sql`select v.title, v.archived, v.status from videos v where v.id = ${videoId} ${archived}`;
}
