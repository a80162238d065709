/**
 * How a video looks to callers: a summary in lists, a detail with stats and media facts on its own.
 */
import { type Static, Type } from 'typebox';
import { Id, NOT_BLANK, Nullable, ResourceId, StringEnum, Tags, Timestamp, Trimmed } from '../../core/schemas.ts';
import { LeadForm } from '../leads/index.ts';
import { TranscriptSummary } from '../transcripts/index.ts';

export const VIDEO_STATUSES = ['waiting_upload', 'processing', 'ready', 'failed'] as const;
export const VideoStatus = StringEnum(VIDEO_STATUSES, {
  description: 'waiting_upload → processing → ready | failed; imports start at processing.',
});

export const VideoId = ResourceId('video', 'The video id, as returned by list_videos.');

export const VideoSummary = Type.Object(
  {
    video_id: VideoId,
    title: Type.String(),
    description: Type.String(),
    status: VideoStatus,
    archived: Type.Boolean({ description: 'Archived videos are hidden from lists by default and not served publicly.' }),
    tags: Type.Array(Type.String()),
    folder_id: Nullable(Id('The folder the video is filed in.')),
    folder_name: Nullable(Type.String()),
    duration_seconds: Nullable(Type.Number({ description: 'Known once processing has probed the file.' })),
    poster_url: Nullable(
      Type.String({ description: 'Poster image, once processing has made one (ready and not archived videos only), for thumbnails.' }),
    ),
    views: Type.Integer({ minimum: 0, description: 'Views so far (a view is a session that played at least 1 s).' }),
    transcript: Nullable(TranscriptSummary),
    created_at: Timestamp('When the video was created.'),
    updated_at: Timestamp('When the video last changed.'),
  },
  { additionalProperties: false },
);
export type VideoSummary = Static<typeof VideoSummary>;

export const VideoStats = Type.Object(
  {
    views: Type.Integer({ minimum: 0 }),
    unique_viewers: Type.Integer({ minimum: 0 }),
    watch_time_seconds: Type.Number({ minimum: 0, description: 'Seconds played, rewatches included.' }),
    average_engagement: Type.Number({ minimum: 0, maximum: 1, description: 'Average share of the video a view watched.' }),
    completions: Type.Integer({ minimum: 0, description: 'Views that watched at least 90%.' }),
    completion_rate: Type.Number({ minimum: 0, maximum: 1 }),
    conversions: Type.Integer({ minimum: 0, description: 'Views that clicked the call to action, plus leads the video’s form captured.' }),
    leads: Type.Integer({ minimum: 0, description: 'Leads the video’s form captured (once per lead).' }),
  },
  { additionalProperties: false, description: 'Lifetime totals; every field is present, zero until viewers arrive.' },
);

export const VideoRendition = Type.Object(
  {
    name: Type.String({ description: 'The rung, named by its short side: 240p, 360p, 540p, 720p, 1080p.' }),
    width: Type.Integer({ minimum: 1 }),
    height: Type.Integer({ minimum: 1 }),
    state: StringEnum(['queued', 'processing', 'ready', 'failed'] as const, {
      description: 'queued and processing: on its way; ready: in the adaptive stream; failed: left out (the video still plays).',
    }),
    bandwidth: Nullable(Type.Integer({ minimum: 0, description: 'Peak bits per second of a segment, once ready.' })),
    failure_reason: Nullable(Type.String({ description: 'Why it could not be made, when failed.' })),
  },
  { additionalProperties: false },
);

export const VideoDetail = Type.Object(
  {
    ...VideoSummary.properties,
    source_url: Nullable(Type.String({ description: 'The public link an import came from.' })),
    file_name: Nullable(Type.String()),
    file_size: Nullable(Type.Integer({ minimum: 0, description: 'Bytes.' })),
    width: Nullable(Type.Integer()),
    height: Nullable(Type.Integer()),
    failure_reason: Nullable(Type.String({ description: 'Why processing failed, when status is failed.' })),
    playback_url: Nullable(Type.String({ description: 'Where the original file streams from, once ready.' })),
    hls_url: Nullable(
      Type.String({
        description:
          'The adaptive stream (HLS master playlist), once the video is ready and a rendition is; players fall back to playback_url.',
      }),
    ),
    renditions: Type.Array(VideoRendition, {
      description: 'The adaptive ladder, smallest first: each H.264/AAC rendition up to the source’s size, with its state.',
    }),
    watch_url: Nullable(Type.String({ description: 'The public watch page to share, once ready.' })),
    embed_url: Nullable(Type.String({ description: 'The page to put in an <iframe> on another site, once ready.' })),
    stats: VideoStats,
    lead_form: Nullable(LeadForm),
    booking_event_type_id: Nullable(Id('The event type whose booking page the watch and embed pages offer ("Book a call").')),
    booking_url: Nullable(
      Type.String({ description: 'Where "Book a call" leads: the event type’s booking page, naming this video; null without one.' }),
    ),
  },
  { additionalProperties: false },
);
export type VideoDetail = Static<typeof VideoDetail>;

export const TagList = Tags('Tags, replacing the current ones.');

/** A title a caller sends: 1–200 characters, not only spaces; stored trimmed, so trimmed before it is judged. */
export const VideoTitle = (description: string) => Trimmed(Type.String({ minLength: 1, maxLength: 200, ...NOT_BLANK, description }));
