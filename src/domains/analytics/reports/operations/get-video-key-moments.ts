/**
 * get_video_key_moments: the notable moments of a video — rewatch peaks, steep drop-offs, call-to-
 * action clicks — ranked, each explained with its numbers and, when a transcript exists, the words
 * spoken then. From the heatmap rollup and the transcript; reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { Nullable, StringEnum, VideoRefProperties } from '../../../../core/schemas.ts';
import { secondsOrNull } from '../../../../core/values/reported-numbers.ts';
import { captionSegments } from '../../../transcripts/index.ts';
import { reportedVideo, VideoId } from '../../../videos/index.ts';
import { SLICES, videoHeatmap } from '../../../viewing/index.ts';
import { findKeyMoments, MIN_VIEWS_FOR_MOMENTS, MOMENT_KINDS, RULES } from '../key-moments.ts';
import { toHeatmap } from '../retention-report.ts';

const Moment = Type.Object(
  {
    rank: Type.Integer({ minimum: 1, description: '1 is the most notable.' }),
    kind: StringEnum(MOMENT_KINDS, {
      description: 'rewatch_peak (played again far more than the rest), drop_off (many viewers stop here), cta_clicks.',
    }),
    start_seconds: Type.Number({ minimum: 0 }),
    end_seconds: Type.Number({ minimum: 0 }),
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Share of views the moment concerns; moments are ranked by it.' }),
    views_involved: Type.Integer({ minimum: 0, description: 'About how many views that is (score × views).' }),
    reason: Type.String({ description: 'Why this is a moment, in a sentence with its numbers.' }),
    transcript: Nullable(
      Type.String({ description: 'The words spoken during the moment (for a drop-off, from 5 s before it); null without a transcript.' }),
    ),
  },
  { additionalProperties: false },
);

export const getVideoKeyMoments = defineOperation({
  name: 'get_video_key_moments',
  summary: 'Get the notable moments of a video',
  description:
    'Returns the moments of a video that viewers reacted to, most notable first: parts they played again (rewatch_peak), ' +
    'places many of them stopped watching (drop_off) and where they clicked the call to action (cta_clicks). Each moment has ' +
    'start and end seconds, a 0–1 score (the share of views concerned), a plain-language reason with the numbers, and the ' +
    `words spoken then when the video has a transcript. Nothing is reported below ${MIN_VIEWS_FOR_MOMENTS} views; rules explains the thresholds.`,
  method: 'GET',
  path: '/videos/{video_id}/key-moments',
  group: 'Videos',
  scope: 'videos:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ video_id: VideoId }, { additionalProperties: false }),
  output: Type.Object(
    {
      ...VideoRefProperties,
      duration_seconds: Nullable(Type.Number()),
      views: Type.Integer({ minimum: 0, description: 'Views so far; moments use all of them.' }),
      minimum_views: Type.Integer({ description: `Views needed before moments are reported (${MIN_VIEWS_FOR_MOMENTS}).` }),
      slices: Type.Integer({ description: `The heatmap the moments come from has this many equal slices (${SLICES}).` }),
      has_transcript: Type.Boolean(),
      moments: Type.Array(Moment, { description: 'At most 10, ranked by score.' }),
      rules: Type.String({ description: 'How moments are found, with every threshold.' }),
      note: Nullable(Type.String({ description: 'Why there are no moments, when there are none.' })),
    },
    { additionalProperties: false },
  ),
  example: { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01' },
  async handler(ctx, input) {
    const video = await reportedVideo(ctx.db, ctx.workspaceId, input.video_id);
    const [row, segments] = await Promise.all([
      videoHeatmap(ctx.db, ctx.workspaceId, video.video_id),
      captionSegments(ctx.db, ctx.workspaceId, video.video_id).then((transcript) => transcript?.segments ?? null),
    ]);
    const views = row?.views ?? 0;
    const moments = row && video.duration_seconds ? findKeyMoments(toHeatmap(video.duration_seconds, row), segments) : [];
    let note: string | null = null;
    if (views < MIN_VIEWS_FOR_MOMENTS) {
      note = `${views} ${views === 1 ? 'view' : 'views'} so far; moments are reported from ${MIN_VIEWS_FOR_MOMENTS} views, below which one viewer moves the heatmap too much.`;
    } else if (moments.length === 0) {
      note = 'Viewers watch this video evenly: no part is replayed, left or clicked notably more than the rest.';
    }
    return {
      ...video,
      duration_seconds: secondsOrNull(video.duration_seconds),
      views,
      minimum_views: MIN_VIEWS_FOR_MOMENTS,
      slices: SLICES,
      has_transcript: segments !== null,
      moments,
      rules: RULES,
      note,
    };
  },
});
