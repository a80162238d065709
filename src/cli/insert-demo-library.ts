/**
 * Writes the demo library (demo-library.ts) into a workspace, in one transaction: its folders (reused
 * when they exist), its sixty videos, and a `video.created` event for each, carrying the video as
 * get_video returns it, like every other video.created. Answers the videos whose viewing
 * demo-viewing.ts then plays.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/tables/index.ts';
import { getVideoDetail } from '../domains/videos/videos.queries.ts';
import { recordEvent } from '../events/outbox.ts';
import type { MediaLinks } from '../media/media-links.ts';
import { DEMO_FOLDERS, demoVideos, prng } from './demo-library.ts';
import type { DemoViewingVideo } from './demo-viewing.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function insertDemoLibrary(
  db: Kysely<Database>,
  { workspaceId, now, links }: { workspaceId: string; now: Date; links: MediaLinks },
): Promise<{ videos: number; watchable: (DemoViewingVideo & { archived: boolean })[] }> {
  const videos = demoVideos();
  // When in its day each video was made: from a fixed seed, so the demo depends on `now` alone.
  const timeOfDay = prng(2026_11_24);
  const watchable: (DemoViewingVideo & { archived: boolean })[] = [];
  await db.transaction().execute(async (trx) => {
    const folderIds = new Map<string, string>();
    for (const name of DEMO_FOLDERS) {
      const row = await trx
        .insertInto('folders')
        .values({ id: randomUUID(), workspace_id: workspaceId, name, created_at: now })
        .onConflict((oc) => oc.expression(sql`workspace_id, lower(name)`).doUpdateSet({ name: sql`folders.name` }))
        .returning('id')
        .executeTakeFirstOrThrow();
      folderIds.set(name, row.id);
    }
    for (const video of videos) {
      const id = randomUUID();
      const createdAt = new Date(now.getTime() - video.ageDays * DAY_MS - Math.floor(timeOfDay() * DAY_MS));
      await trx
        .insertInto('videos')
        .values({
          id,
          workspace_id: workspaceId,
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
      const detail = await getVideoDetail(trx, workspaceId, id, links);
      await recordEvent(trx, { workspaceId, type: 'video.created', data: { video_id: id, video: detail }, at: createdAt });
    }
  });
  return { videos: videos.length, watchable };
}
