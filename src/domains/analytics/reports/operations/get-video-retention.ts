/**
 * get_video_retention: where viewers of a video stay and leave, over its lifetime, from the 100-slice
 * heatmap rollup: the curve, the average percentage viewed, the biggest drop-offs and rewatch peaks.
 * Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { Nullable, VideoRefProperties } from '../../../../core/schemas.ts';
import { secondsOrNull } from '../../../../core/values/reported-numbers.ts';
import { reportedVideo, VideoId } from '../../../videos/index.ts';
import { videoHeatmap } from '../../../viewing/index.ts';
import { describeRetention, RetentionPoint } from '../retention-report.ts';

const Stretch = {
  start_seconds: Type.Number({ minimum: 0 }),
  end_seconds: Type.Number({ minimum: 0 }),
};

export const getVideoRetention = defineOperation({
  name: 'get_video_retention',
  summary: 'Get where viewers stay and drop off in a video',
  description:
    'Returns the retention curve of a video over its lifetime: for each of 100 equal slices, the share of views that watched it ' +
    'and the plays per view (rewatches count again); the average percentage viewed; the biggest drop-off points (where the ' +
    'curve falls most, the opening seconds left out) and rewatch peaks (parts played again far more than the rest). ' +
    'A video nobody has watched yet answers with an empty curve and a note.',
  method: 'GET',
  path: '/videos/{video_id}/retention',
  group: 'Analytics',
  scope: 'analytics:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ video_id: VideoId }, { additionalProperties: false }),
  output: Type.Object(
    {
      ...VideoRefProperties,
      duration_seconds: Nullable(Type.Number()),
      views: Type.Integer({ minimum: 0, description: 'Views behind the curve (lifetime).' }),
      slices: Type.Integer({ description: 'The curve has this many equal slices (100) once there are views.' }),
      slice_seconds: Nullable(Type.Number({ description: 'Length of one slice; null while the duration is unknown.' })),
      average_percentage_viewed: Type.Number({
        minimum: 0,
        maximum: 100,
        description: 'Average share of the video a view watched, in percent (average engagement × 100).',
      }),
      curve: Type.Array(RetentionPoint, { description: '100 points in time order; empty without views.' }),
      opening_drop: Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Share of views lost between the first and second slice; left out of drop_offs because the first seconds say little.',
      }),
      drop_offs: Type.Array(
        Type.Object(
          {
            ...Stretch,
            from_retention: Type.Number({ description: 'Share of views still watching before the fall.' }),
            to_retention: Type.Number({ description: 'Share still watching after it.' }),
            fall: Type.Number({ description: 'Share of views lost here: from_retention − to_retention.' }),
          },
          { additionalProperties: false },
        ),
        { description: 'Up to 3, biggest fall first: stretches where each slice boundary loses at least 2% of views.' },
      ),
      rewatch_peaks: Type.Array(
        Type.Object(
          {
            ...Stretch,
            rewatch: Type.Number({ description: 'Highest plays per view in the stretch.' }),
            median_rewatch: Type.Number({ description: 'Plays per view of the median slice, for comparison.' }),
            replay_share: Type.Number({ description: 'Highest share of views that played a slice of it again.' }),
          },
          { additionalProperties: false },
        ),
        {
          description: 'Up to 3, most replayed first: ≥ 10% of views played it again, and ≥ 2 × as often as the median slice is replayed.',
        },
      ),
      note: Nullable(Type.String({ description: 'Why the answer is empty, when it is.' })),
    },
    { additionalProperties: false },
  ),
  example: { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01' },
  async handler(ctx, input) {
    const video = await reportedVideo(ctx.db, ctx.workspaceId, input.video_id);
    const heatmap = await videoHeatmap(ctx.db, ctx.workspaceId, video.video_id);
    return { ...video, duration_seconds: secondsOrNull(video.duration_seconds), ...describeRetention(video.duration_seconds, heatmap) };
  },
});
