/**
 * Video titles for other areas' rows that name a video (a lead's source video, an outcome's
 * touches, a timeline entry): a table to join in the reader's own statement, so showing a title
 * costs no extra query. PostgreSQL flattens the subquery into a join on `videos`.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, VideosTable } from '../../db/tables/index.ts';

/** The workspace's videos as (id, title), to join by id (`.as('v')`, or in a sql`` join). */
export function videoTitles(
  db: Kysely<Database>,
  workspaceId: string,
): SelectQueryBuilder<Database, 'videos', Pick<VideosTable, 'id' | 'title'>> {
  return db.selectFrom('videos').select(['id', 'title']).where('workspace_id', '=', workspaceId);
}
