/**
 * Writes the demo library (demo-library.ts) into a workspace, in one transaction: its folders (reused
 * when they exist), its sixty videos, and a `video.created` event for each, carrying the video as
 * get_video returns it, like every other video.created. Given a media store and ffmpeg, it first
 * makes every ready video's clip (demo-media.ts), and those videos' rows describe their clips, with a
 * poster and a transcript; without, their rows describe clips that were never made (tests that only
 * need the rows). Answers the videos whose viewing demo-viewing.ts then plays.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { outboxEmitter } from '../db/outbox.ts';
import type { Database } from '../db/tables/index.ts';
import { saveTranscript } from '../domains/transcripts/index.ts';
import { emitVideoCreated, ensureFolder, getVideoDetail, insertSeedVideo } from '../domains/videos/index.ts';
import type { MediaLinks } from '../media/media-links.ts';
import { probedVideoColumns } from '../media/probe.ts';
import { DEMO_FOLDERS, type DemoVideo, demoVideos, prng } from './demo-library.ts';
import { type DemoClip, type DemoMediaTools, makeDemoMedia, removeDemoMedia } from './demo-media.ts';
import type { DemoViewingVideo } from './demo-viewing.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function insertDemoLibrary(
  db: Kysely<Database>,
  { workspaceId, now, links, media }: { workspaceId: string; now: Date; links: MediaLinks; media?: DemoMediaTools },
): Promise<{ videos: number; watchable: (DemoViewingVideo & { archived: boolean })[] }> {
  const videos = demoVideos();
  const clips = media ? await makeDemoMedia(videos, workspaceId, media) : new Map<string, DemoClip>();
  try {
    return { videos: videos.length, watchable: await insertRows(db, { workspaceId, now, links, videos, clips }) };
  } catch (error) {
    if (media)
      await removeDemoMedia(
        media.store,
        workspaceId,
        [...clips.values()].map((clip) => clip.videoId),
      );
    throw error;
  }
}

async function insertRows(
  db: Kysely<Database>,
  {
    workspaceId,
    now,
    links,
    videos,
    clips,
  }: { workspaceId: string; now: Date; links: MediaLinks; videos: DemoVideo[]; clips: Map<string, DemoClip> },
): Promise<(DemoViewingVideo & { archived: boolean })[]> {
  // When in its day each video was made: from a fixed seed, so the demo depends on `now` alone.
  const timeOfDay = prng(2026_11_24);
  const watchable: (DemoViewingVideo & { archived: boolean })[] = [];
  await db.transaction().execute(async (trx) => {
    const folderIds = new Map<string, string>();
    for (const name of DEMO_FOLDERS) {
      folderIds.set(name, await ensureFolder(trx, workspaceId, name, now));
    }
    for (const video of videos) {
      const clip = clips.get(video.title);
      const id = clip?.videoId ?? randomUUID();
      const createdAt = new Date(now.getTime() - video.ageDays * DAY_MS - Math.floor(timeOfDay() * DAY_MS));
      const facts = clip
        ? clipFacts(clip)
        : { file_size: video.fileSize, duration_seconds: video.durationSeconds, width: video.width, height: video.height };
      await insertSeedVideo(trx, workspaceId, {
        id,
        folder_id: folderIds.get(video.folder) ?? null,
        title: video.title,
        description: video.description,
        tags: video.tags,
        status: video.status,
        // Archived once its viewing is played: archived videos collect no more views.
        archived: false,
        file_name: video.fileName,
        failure_reason: video.failureReason,
        source_url: null,
        created_at: createdAt,
        updated_at: createdAt,
        ...facts,
      });
      if (clip) await saveTranscript(trx, workspaceId, id, { source: 'embedded', ...clip.transcript }, createdAt);
      if (video.status === 'ready' && facts.duration_seconds) {
        watchable.push({ id, durationSeconds: facts.duration_seconds, createdAt, archived: video.archived });
      }
      const detail = await getVideoDetail(trx, workspaceId, id, links);
      await emitVideoCreated(outboxEmitter(trx, workspaceId, createdAt), detail);
    }
  });
  return watchable;
}

/** What processing would have written for the clip's file (video-processing.ts). */
function clipFacts({ fileSize, facts }: DemoClip) {
  return {
    file_size: fileSize,
    ...probedVideoColumns(facts),
    has_poster: true,
  };
}
