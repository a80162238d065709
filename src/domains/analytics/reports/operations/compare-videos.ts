/**
 * compare_videos: ranks 2–20 videos of the workspace by real performance — engagement, completion
 * and conversion (call-to-action clicks plus leads captured), each pulled toward the workspace average by its number of views and scored
 * cautiously — and says why each rank. From the lifetime rollups; reads only (POST for the id list).
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { VideoId, videosWithIds } from '../../../videos/index.ts';
import { lifetimeStatsOfVideos, workspaceLifetimeTotals } from '../../../viewing/index.ts';
import { ComparedVideo } from '../../analytics.schemas.ts';
import { CAUTION, PRIOR_VIEWS, rankVideos, ratesOf, SCORE_WEIGHTS } from '../fair-score.ts';

const NO_VIEWS = { views: 0, engagement_sum: 0, completions: 0, conversions: 0, leads: 0 };

export const compareVideos = defineOperation({
  name: 'compare_videos',
  summary: 'Rank videos by real performance',
  description:
    'Ranks 2–20 videos of the workspace by a score built from engagement, completion rate and conversion rate (call-to-action ' +
    'clicks plus leads captured, per view) over their lifetime. ' +
    `Each rate is pulled toward the workspace average as if the video had ${PRIOR_VIEWS} extra views at that average (a Bayesian ` +
    'average) and then scored cautiously, two standard errors lower, so a video with 3 perfect views does not beat one with 200 ' +
    'good ones. A score of 100 means exactly the workspace average, measured beyond doubt; each video comes with its rates, ' +
    'the score, its rank and sentences saying why.',
  method: 'POST',
  path: '/videos/compare',
  group: 'Videos',
  scope: 'videos:read',
  write: false,
  errors: ['not_found', 'invalid_request'],
  input: Type.Object(
    {
      video_ids: Type.Array(VideoId, {
        minItems: 2,
        maxItems: 20,
        uniqueItems: true,
        description: 'The videos to compare: 2 to 20 distinct ids of this workspace.',
      }),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      videos: Type.Array(ComparedVideo, { description: 'Best first.' }),
      method: Type.Object(
        {
          prior_views: Type.Integer({ description: 'Weight of the workspace average in every adjusted rate, in views.' }),
          caution: Type.Number({ description: 'How many standard errors below its adjusted value each rate is scored.' }),
          weights: Type.Object(
            { average_engagement: Type.Number(), completion_rate: Type.Number(), conversion_rate: Type.Number() },
            { additionalProperties: false },
          ),
          description: Type.String(),
        },
        { additionalProperties: false, description: 'How the score is computed, with its constants.' },
      ),
    },
    { additionalProperties: false },
  ),
  example: { video_ids: ['0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01', 'fc6c6ab2-017c-4a91-a88a-72c1ec9e9cc1'] },
  async handler(ctx, input) {
    // Ids are case-insensitive: the same video written twice is a duplicate.
    const ids = input.video_ids.map((id) => id.toLowerCase());
    if (new Set(ids).size !== ids.length)
      throw AppError.invalid([{ field: 'video_ids', problem: 'must not list the same video twice (ids are not case-sensitive)' }]);
    const [videos, stats, workspaceTotals] = await Promise.all([
      videosWithIds(ctx.db, ctx.workspaceId, ids),
      lifetimeStatsOfVideos(ctx.db, ctx.workspaceId, ids),
      workspaceLifetimeTotals(ctx.db, ctx.workspaceId),
    ]);
    const titles = new Map(videos.map((video) => [video.id, video.title]));
    const missing = ids.filter((id) => !titles.has(id));
    if (missing.length > 0) {
      throw new AppError('not_found', `No video with id ${missing.join(', ')} in this workspace.`, { missing_video_ids: missing });
    }
    const totals = new Map(stats.map((row) => [row.video_id, row]));
    const candidates = ids.map((id) => ({ video_id: id, title: titles.get(id) ?? '', totals: totals.get(id) ?? NO_VIEWS }));
    return {
      videos: rankVideos(candidates, ratesOf(workspaceTotals)),
      method: {
        prior_views: PRIOR_VIEWS,
        caution: CAUTION,
        weights: { ...SCORE_WEIGHTS },
        description:
          `adjusted = (views × rate + ${PRIOR_VIEWS} × workspace average) / (views + ${PRIOR_VIEWS}); ` +
          `cautious = adjusted − ${CAUTION} × √(adjusted × (1 − adjusted) / (views + ${PRIOR_VIEWS + 1})); ` +
          'index = cautious / workspace average; score = 100 × the weighted mean of the indexes (weights above), ' +
          'over the rates whose workspace average is above 0.',
      },
    };
  },
});
