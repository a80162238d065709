/**
 * A rendition row, as the rendition worker leaves one (src/domains/videos/renditions/renditions.queries.ts),
 * for page tests that need a video with (or without) an adaptive stream and no ffmpeg.
 */
import { randomUUID } from 'node:crypto';
import type { RenditionState } from '../../src/db/tables/index.ts';
import type { TestApp } from './app.ts';

export async function addRendition(
  harness: TestApp,
  ids: { workspaceId: string; videoId: string },
  state: RenditionState = 'ready',
  name = '240p',
): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  const ready = state === 'ready';
  await harness.database.db
    .insertInto('video_renditions')
    .values({
      id,
      workspace_id: ids.workspaceId,
      video_id: ids.videoId,
      name,
      width: 426,
      height: 240,
      video_kbps: 400,
      audio_kbps: 96,
      state,
      codecs: 'avc1.4d0020,mp4a.40.2',
      bandwidth: ready ? 560_000 : null,
      average_bandwidth: ready ? 480_000 : null,
      segments: ready ? 2 : null,
      bytes: ready ? 240_000 : null,
      failure_reason: state === 'failed' ? 'ffmpeg failed' : null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
