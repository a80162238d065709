/**
 * What `video.*` events carry: the video as get_video returns it (the same schema, so a receiver
 * never needs a call back to learn what changed), its id on top, and what is particular to the event:
 * why processing failed, which fields an update changed. `video.deleted` carries only the id and title.
 */
import { Type } from 'typebox';
import type { EventDefinition } from '../../core/event-definition.ts';
import { StringEnum } from '../../core/schemas.ts';
import { VideoDetail, VideoId } from './videos.schemas.ts';

/** The video as get_video returns it, at the time of the event. */
const video = VideoDetail;

export const VideoCreated = Type.Object({ video_id: VideoId, video }, { additionalProperties: false });

export const VideoReady = Type.Object({ video_id: VideoId, video }, { additionalProperties: false });

export const VideoFailed = Type.Object(
  {
    video_id: VideoId,
    failure_reason: Type.String({ description: 'Why processing or the import failed, written for the video’s owner.' }),
    video,
  },
  { additionalProperties: false },
);

/** Fields of a video that update_video (and a tag rename) can change, and its transcript, which set_video_transcript replaces. */
export const VIDEO_CHANGEABLE_FIELDS = [
  'title',
  'description',
  'tags',
  'folder_id',
  'archived',
  'lead_form',
  'booking_event_type_id',
  'transcript',
] as const;
export type VideoChangeableField = (typeof VIDEO_CHANGEABLE_FIELDS)[number];

export const VideoUpdated = Type.Object(
  {
    video_id: VideoId,
    changed: Type.Array(StringEnum(VIDEO_CHANGEABLE_FIELDS), { minItems: 1, description: 'The fields that changed.' }),
    renamed_tag: Type.Optional(
      Type.Object(
        { from: Type.String(), to: Type.String() },
        { additionalProperties: false, description: 'Present when rename_tag made the change: the tag renamed, and its new name.' },
      ),
    ),
    video,
  },
  { additionalProperties: false },
);

/**
 * A deleted video: only its id and title, as it was. Nothing of it is left to fetch (its files go from
 * the media store right after the deletion commits).
 */
export const VideoDeleted = Type.Object(
  {
    video_id: VideoId,
    title: Type.String({ description: 'The title the video had when it was deleted.' }),
  },
  { additionalProperties: false },
);

/** The video event types this area emits, assembled with every other area's by src/event-catalog.ts. */
export const videoEvents = {
  'video.created': {
    summary: 'A video was created',
    when: 'import_video or create_video_upload created a video (so does the demo seed).',
    data: VideoCreated,
  },
  'video.ready': {
    summary: 'A video is ready',
    when: 'Processing finished: the video plays, with its duration, dimensions and URLs.',
    data: VideoReady,
  },
  'video.failed': {
    summary: 'A video failed',
    when: 'Processing or the import failed; `failure_reason` says why. The video stays, with status failed.',
    data: VideoFailed,
  },
  'video.updated': {
    summary: 'A video was changed',
    when: 'update_video, rename_tag or set_video_transcript changed the video; `changed` lists the fields, `video` is how it is now.',
    data: VideoUpdated,
  },
  'video.deleted': {
    summary: 'A video was deleted',
    when: 'A signed-in owner or admin deleted the video in the dashboard: it, its files, transcript, analytics and the route steps that played it are gone.',
    data: VideoDeleted,
  },
} as const satisfies Record<string, EventDefinition>;
