/**
 * `cuepoint seed --demo [--workspace ID] [--json]`: a living library for a newcomer to explore: six
 * folders and sixty videos with tags, statuses and archived ones, and ninety days of viewing played
 * through the real collection code (demo-viewing.ts). Creates a new business-plan workspace (and
 * prints its admin key) unless --workspace names an existing one.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { recordEvent } from '../core/events.ts';
import { createWorkspace } from '../domains/workspace/workspace.queries.ts';
import { openConfiguredDatabase } from '../runtime.ts';
import { DEMO_FOLDERS, demoVideos } from './demo-library.ts';
import { type DemoViewingVideo, playDemoViewing } from './demo-viewing.ts';
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
    const watchable: (DemoViewingVideo & { archived: boolean })[] = [];
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
            // Archived once its viewing is played: archived videos collect no more views.
            archived: false,
            file_name: video.fileName,
            file_size: video.fileSize,
            duration_seconds: video.durationSeconds,
            width: video.width,
            height: video.height,
            failure_reason: video.failureReason,
            source_url: null,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute();
        if (video.status === 'ready' && video.durationSeconds) {
          watchable.push({ id, durationSeconds: video.durationSeconds, createdAt, archived: video.archived });
        }
        await recordEvent(trx, { workspaceId: wsId, type: 'video.created', data: { video_id: id, title: video.title }, at: createdAt });
      }
    });
    const sessions = await playDemoViewing(database.db, watchable, now);
    const archivedIds = watchable.filter((video) => video.archived).map((video) => video.id);
    if (archivedIds.length > 0) await database.db.updateTable('videos').set({ archived: true }).where('id', 'in', archivedIds).execute();
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ workspace_id: wsId, ...(apiKey ? { api_key: apiKey } : {}), videos: videos.length, folders: DEMO_FOLDERS.length, viewing_sessions: sessions })}\n`,
      );
    } else {
      process.stdout.write(
        `Seeded ${videos.length} videos in ${DEMO_FOLDERS.length} folders and ${sessions} viewing sessions over 90 days into workspace ${wsId}.\n`,
      );
      if (apiKey) process.stdout.write(`Admin API key (shown once): ${apiKey}\n`);
    }
  } finally {
    await database.close();
  }
}
