/**
 * Which videos the public side may show: ready and not archived. The media files, the poster, the
 * watch and embed pages and viewing collection all serve through here, as will channel and route
 * pages, so "archived" means gone from every public surface at once. Public requests name a video
 * by its unguessable id alone, without a workspace; anything else is not found.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, VideosTable } from '../../db/tables/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every servable video, to narrow further (by workspace for a channel, by id below). */
export function servableVideos(db: Kysely<Database>): SelectQueryBuilder<Database, 'videos', object> {
  return db.selectFrom('videos').where('videos.status', '=', 'ready').where('videos.archived', '=', false);
}

/** The servable video with this id, shaped by `pick`; undefined when there is none or the id is malformed. */
export async function findServableVideo<O>(
  db: Kysely<Database>,
  videoId: string,
  pick: (query: SelectQueryBuilder<Database, 'videos', object>) => SelectQueryBuilder<Database, 'videos', O>,
): Promise<O | undefined> {
  if (!UUID.test(videoId)) return undefined;
  return pick(servableVideos(db).where('videos.id', '=', videoId)).executeTakeFirst();
}

/** The servable videos among these ids (malformed ids are skipped), shaped by `pick`: one query for many. */
export async function findServableVideos<O>(
  db: Kysely<Database>,
  videoIds: readonly string[],
  pick: (query: SelectQueryBuilder<Database, 'videos', object>) => SelectQueryBuilder<Database, 'videos', O>,
): Promise<O[]> {
  const wellFormed = [...new Set(videoIds)].filter((id) => UUID.test(id));
  if (wellFormed.length === 0) return [];
  return pick(servableVideos(db).where('videos.id', 'in', wellFormed)).execute();
}

/** The same rule for a video already read, so get_video hands out public URLs only for what is served. */
export function isServable(video: Pick<VideosTable, 'status'> & { archived: boolean }): boolean {
  return video.status === 'ready' && !video.archived;
}
