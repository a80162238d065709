/**
 * The demo library's media: for every ready video (archived ones too), a clip (demo-clip.ts) stored
 * where an upload's file is kept, probed as processing probes an upload, with a poster made the way
 * processing makes one, and the clip's captions as its transcript. Made before the library's rows are
 * written, so each row states its own clip's duration, size and dimensions (insert-demo-library.ts).
 * A clip that cannot be made fails the seed, naming its video, and leaves no files behind.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MediaFacts, probeMedia } from '../media/probe.ts';
import type { TranscriptSegment } from '../media/webvtt.ts';
import type { MediaStore } from '../storage/media-store.ts';
import { makePoster } from '../workers/video-extras.ts';
import { CommandRefusedError } from './command-refused.ts';
import { demoClipCaptions, makeDemoClip, makeDemoPattern, TITLE_CARD_SECONDS } from './demo-clip.ts';
import type { DemoVideo } from './demo-library.ts';

export interface DemoMediaTools {
  store: MediaStore;
  ffmpegPath: string;
}

/** A ready demo video's stored clip: the id its row must take, and what the row says about the file. */
export interface DemoClip {
  videoId: string;
  fileSize: number;
  facts: MediaFacts;
  transcript: { language: string | null; segments: TranscriptSegment[] };
}

/** Makes and stores the clips of the ready videos; answers them by title (titles are unique in the library). */
export async function makeDemoMedia(
  videos: readonly DemoVideo[],
  workspaceId: string,
  tools: DemoMediaTools,
): Promise<Map<string, DemoClip>> {
  const ready = videos.filter((video) => video.status === 'ready');
  const clips = new Map<string, DemoClip>();
  const longest = Math.max(0, ...ready.map((video) => video.durationSeconds ?? 0));
  if (longest === 0) return clips;
  const workRoot = await mkdtemp(join(tmpdir(), 'cuepoint-demo-clips-'));
  const stored: string[] = [];
  try {
    const patternPath = join(workRoot, 'pattern.mp4');
    await failingAs('the test pattern all clips share', () =>
      makeDemoPattern(tools.ffmpegPath, { seconds: longest - TITLE_CARD_SECONDS, path: patternPath }),
    );
    // One clip per core at a time, since each ffmpeg run uses one thread; the first failure stops them all.
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < ready.length) {
        const [index, video] = [next, ready[next++] as DemoVideo];
        const videoId = randomUUID();
        stored.push(videoId);
        const workDir = join(workRoot, String(index));
        try {
          clips.set(
            video.title,
            await failingAs(`"${video.title}"`, () => storeClip(tools, { workspaceId, videoId }, video, { workDir, patternPath })),
          );
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const results = await Promise.allSettled(Array.from({ length: Math.min(availableParallelism(), ready.length) }, worker));
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    return clips;
  } catch (error) {
    await removeDemoMedia(tools.store, workspaceId, stored);
    throw error;
  } finally {
    await rm(workRoot, { recursive: true, force: true });
  }
}

/** Removes the files of these videos' clips: the library's rows were not written after all. */
export async function removeDemoMedia(store: MediaStore, workspaceId: string, videoIds: Iterable<string>): Promise<void> {
  for (const videoId of videoIds) {
    await store.removeVideo({ workspaceId, videoId });
  }
}

async function storeClip(
  tools: DemoMediaTools,
  ids: { workspaceId: string; videoId: string },
  video: DemoVideo,
  work: { workDir: string; patternPath: string },
): Promise<DemoClip> {
  const subject = {
    title: video.title,
    folder: video.folder,
    description: video.description,
    durationSeconds: video.durationSeconds as number,
  };
  await mkdir(work.workDir);
  const made = await makeDemoClip(tools.ffmpegPath, subject, work);
  const source = { ...ids, file: 'source' } as const;
  const fileSize = await tools.store.write(source, createReadStream(made), { exactly: (await stat(made)).size });
  // What the row says comes from the stored file, read as processing reads an upload.
  const facts = await tools.store.withLocalFile(source, async (path) => {
    const probed = await probeMedia(path);
    if (!probed.hasVideo || probed.durationSeconds === null) throw new Error(`ffmpeg made a file that is not a video (${probed.format})`);
    await makePoster(tools, tools.ffmpegPath, path, { ...ids, file: 'poster.jpg' }, probed.durationSeconds);
    return probed;
  });
  return {
    videoId: ids.videoId,
    fileSize,
    facts,
    transcript: { language: facts.textSubtitles?.language ?? null, segments: demoClipCaptions(subject) },
  };
}

async function failingAs<T>(what: string, make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CommandRefusedError(`seed --demo could not make the demo clip for ${what}: ${reason}`);
  }
}
