/**
 * Events in tests: the media links a test app hands out (what workers need to put a video in its
 * events, as get_video shows it), and valid data for events a test records by hand.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/tables/index.ts';
import { getVideoDetail } from '../../src/domains/videos/videos.queries.ts';
import { createMediaLinks } from '../../src/media/media-links.ts';
import { TEST_SECRET } from './app.ts';

/** The links of a test app started with the default public URL (startTestApp's). */
export const testMediaLinks = createMediaLinks(TEST_SECRET, 'http://localhost:3000').links;

/** `{ video_id, video }` for a video of the workspace, as video.* events carry it. */
export async function videoEventData(db: Kysely<Database>, workspaceId: string, videoId: string) {
  return { video_id: videoId, video: await getVideoDetail(db, workspaceId, videoId, testMediaLinks) };
}
