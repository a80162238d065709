/**
 * `cuepoint seed --demo [--workspace ID] [--json]`: a living library for a newcomer to explore: six
 * folders and sixty videos with tags, statuses, archived ones and view statistics. Creates a new
 * business-plan workspace (and prints its admin key) unless --workspace names an existing one.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { recordEvent } from '../core/events.ts';
import { createWorkspace } from '../domains/workspace/workspace.queries.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { DEMO_FOLDERS, demoVideos } from './demo-library.ts';
import { UsageError } from './usage-error.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function seedDemo(config: Config, options: { demo: boolean; workspace?: string; json: boolean }): Promise<void> {
  if (!options.demo) throw new UsageError('seed needs --demo (the only data set there is)');
  const database = await openConfiguredDatabase(config, { migrate: true });
  try {
    const now = new Date();
    let workspaceId = options.workspace;
    let apiKey: string | undefined;
    if (workspaceId) {
      const found = await database.db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst();
      if (!found) throw new UsageError(`No workspace ${workspaceId}`);
    } else {
      const created = await createWorkspace(database.db, { name: 'Demo workspace', plan: 'business', now });
      workspaceId = created.workspace.id;
      apiKey = created.apiKey;
    }
    const wsId = workspaceId;
    const videos = demoVideos();
    await database.db.transaction().execute(async (trx) => {
      const folderIds = new Map<string, string>();
      for (const name of DEMO_FOLDERS) {
        const row = await trx
          .insertInto('folders')
          .values({ id: randomUUID(), workspace_id: wsId, name, created_at: now })
          .onConflict((oc) => oc.columns(['workspace_id', 'name']).doUpdateSet({ name }))
          .returning('id')
          .executeTakeFirstOrThrow();
        folderIds.set(name, row.id);
      }
      for (const video of videos) {
        const id = randomUUID();
        const createdAt = new Date(now.getTime() - video.ageDays * DAY_MS - Math.floor(Math.random() * DAY_MS));
        await trx
          .insertInto('videos')
          .values({
            id,
            workspace_id: wsId,
            folder_id: folderIds.get(video.folder) ?? null,
            title: video.title,
            description: video.description,
            tags: video.tags,
            status: video.status,
            archived: video.archived,
            file_name: video.fileName,
            file_size: video.fileSize,
            duration_seconds: video.durationSeconds,
            width: video.width,
            height: video.height,
            failure_reason: video.failureReason,
            source_url: null,
            view_count: video.stats?.views ?? 0,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute();
        if (video.stats) {
          await trx
            .insertInto('video_stats')
            .values({
              video_id: id,
              workspace_id: wsId,
              views: video.stats.views,
              unique_viewers: video.stats.uniqueViewers,
              watch_time_seconds: video.stats.watchTimeSeconds,
              engagement_sum: video.stats.engagementSum,
              completions: video.stats.completions,
              conversions: video.stats.conversions,
              leads: 0,
              updated_at: now,
            })
            .execute();
        }
        await recordEvent(trx, { workspaceId: wsId, type: 'video.created', data: { video_id: id, title: video.title }, at: createdAt });
      }
    });
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ workspace_id: wsId, ...(apiKey ? { api_key: apiKey } : {}), videos: videos.length, folders: DEMO_FOLDERS.length })}\n`,
      );
    } else {
      process.stdout.write(`Seeded ${videos.length} videos in ${DEMO_FOLDERS.length} folders into workspace ${wsId}.\n`);
      if (apiKey) process.stdout.write(`Admin API key (shown once): ${apiKey}\n`);
    }
  } finally {
    await database.close();
  }
}
