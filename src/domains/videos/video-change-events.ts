/**
 * The one emitter of `video.created` and of `video.updated`, whichever write made or changed the video
 * (an upload, an import or the demo seed; update_video, set_video_transcript or rename_tag).
 */
import type { Emit } from '../../core/context.ts';
import type { VideoChangeableField } from './videos.events.ts';
import type { VideoDetail } from './videos.schemas.ts';

export async function emitVideoCreated(emit: Emit, video: VideoDetail): Promise<void> {
  await emit('video.created', { video_id: video.video_id, video });
}

/** Announces a change of `changed` (none: nothing to announce); `renamedTag` when rename_tag made it. */
export async function emitVideoUpdated(
  emit: Emit,
  video: VideoDetail,
  changed: readonly VideoChangeableField[],
  renamedTag?: { from: string; to: string },
): Promise<void> {
  if (changed.length === 0) return;
  await emit('video.updated', {
    video_id: video.video_id,
    changed: [...changed],
    ...(renamedTag ? { renamed_tag: renamedTag } : {}),
    video,
  });
}
