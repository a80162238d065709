/**
 * Which videos have an adaptive stream to offer: at least one ready rendition, so their HLS master
 * playlist lists something (src/transports/public/media/hls-media.ts). The pages that play videos ask, to let the
 * player choose the stream over the original file; one query for a route's many steps.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';

export async function videosWithAdaptiveStream(
  db: Kysely<Database>,
  workspaceId: string,
  videoIds: readonly string[],
): Promise<Set<string>> {
  if (videoIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('video_renditions')
    .select('video_id')
    .distinct()
    .where('workspace_id', '=', workspaceId)
    .where('video_id', 'in', videoIds)
    .where('state', '=', 'ready')
    .execute();
  return new Set(rows.map((row) => row.video_id));
}
