/**
 * What get_workspace reports of a workspace's use: its videos and storage (the videos area) and its
 * active keys (api-keys), beside the workspace row. Apart from workspace.queries.ts, which the front
 * door exports, so the areas that read a workspace's facts do not load videos and api-keys with them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables/index.ts';
import { countActiveCredentials } from '../api-keys/index.ts';
import { videoUsage } from '../videos/index.ts';

export async function getWorkspaceUsage(db: Kysely<Database>, workspaceId: string, now: Date) {
  const [workspace, videos, apiKeys] = await Promise.all([
    db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirstOrThrow(),
    videoUsage(db, workspaceId),
    countActiveCredentials(db, workspaceId, now),
  ]);
  return {
    workspace,
    usage: {
      videos: videos.total,
      videos_ready: videos.ready,
      videos_archived: videos.archived,
      storage_bytes: videos.bytes,
      api_keys: apiKeys,
    },
  };
}
