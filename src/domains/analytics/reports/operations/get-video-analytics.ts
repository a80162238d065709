/**
 * get_video_analytics: one video's totals and zero-filled daily series between two dates, in the
 * workspace time zone, from the per-day rollups (distinct viewers by merging day sketches) and the
 * ledger's entries attributed to the video by last touch, read by index. Reads only.
 */
import { Type } from 'typebox';
import { eachDay } from '../../../../core/calendar/calendar-days.ts';
import { localDay } from '../../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { Nullable, VideoRefProperties } from '../../../../core/schemas.ts';
import { secondsOrNull } from '../../../../core/values/reported-numbers.ts';
import { succeededOutcomes } from '../../../outcomes/index.ts';
import { reportedVideo, VideoId } from '../../../videos/index.ts';
import { videoDayRows } from '../../../viewing/index.ts';
import { workspaceTimeZone } from '../../../workspace/index.ts';
import { DayMetrics, IsoDate, Metrics, VideoLedgerProperties, WorkspaceTimeZone } from '../../analytics.schemas.ts';
import { resolveDateWindow } from '../date-range.ts';
import { localDayBoundaries } from '../day-boundaries.ts';
import { byDay, distinctViewers, metricsOf, sumRows } from '../day-metrics.ts';
import { netRevenue } from '../net-revenue.ts';

export const getVideoAnalytics = defineOperation({
  name: 'get_video_analytics',
  summary: 'Get views, engagement and conversions of a video, per day',
  description:
    'Returns how one video did between from_date and to_date (calendar days in the workspace time zone, both included; ' +
    'default: the 28 days ending today; at most 366 days): totals and one entry per day, zero-filled, with views, unique viewers, ' +
    'watch time, average engagement, completions, completion rate, conversions (call-to-action clicks plus leads its form captured), ' +
    'conversion rate, leads, and revenue (net per currency, minor units, from sales attributed to it by last touch). ' +
    'Use get_video_retention for where in the video people stop watching.',
  method: 'GET',
  path: '/videos/{video_id}/analytics',
  group: 'Analytics',
  scope: 'analytics:read',
  write: false,
  errors: ['not_found', 'invalid_request'],
  input: Type.Object(
    {
      video_id: VideoId,
      from_date: Type.Optional(IsoDate('First day (YYYY-MM-DD), included. Default: 27 days before to_date.')),
      to_date: Type.Optional(IsoDate('Last day (YYYY-MM-DD), included. Default: today in the workspace time zone.')),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      ...VideoRefProperties,
      duration_seconds: Nullable(Type.Number({ description: 'Known once processing has probed the file.' })),
      time_zone: WorkspaceTimeZone,
      from_date: IsoDate('First day of the series.'),
      to_date: IsoDate('Last day of the series.'),
      days: Type.Integer({ minimum: 1, description: 'Number of days in the series.' }),
      totals: Type.Object({ ...Metrics.properties, ...VideoLedgerProperties }, { additionalProperties: false }),
      daily: Type.Array(Type.Object({ ...DayMetrics.properties, ...VideoLedgerProperties }, { additionalProperties: false }), {
        description: 'One entry per day from from_date to to_date, in order; days without views are zeros.',
      }),
    },
    { additionalProperties: false },
  ),
  example: { video_id: '0b8e5b52-3f0c-4a55-9d47-6f1f2a1c9e01', from_date: '2026-10-25', to_date: '2026-11-21' },
  async handler(ctx, input) {
    const video = await reportedVideo(ctx.db, ctx.workspaceId, input.video_id);
    const timeZone = await workspaceTimeZone(ctx.db, ctx.workspaceId);
    const window = resolveDateWindow(
      { from: input.from_date, to: input.to_date },
      { from: 'from_date', to: 'to_date' },
      localDay(ctx.now, timeZone),
    );
    const dates = eachDay(window.from, window.to);
    // Where each day begins, and where the last one ends: outcome bucket i + 1 falls on dates[i].
    const boundaries = localDayBoundaries(window.from, window.to, timeZone);
    const [rows, outcomes] = await Promise.all([
      videoDayRows(ctx.db, ctx.workspaceId, video.video_id, window.from, window.to),
      succeededOutcomes(ctx.db, ctx.workspaceId, boundaries, video.video_id),
    ]);
    const days = byDay(rows);
    const outcomesByDay = Map.groupBy(outcomes, (entry) => entry.bucket);
    return {
      ...video,
      duration_seconds: secondsOrNull(video.duration_seconds),
      time_zone: timeZone,
      from_date: window.from,
      to_date: window.to,
      days: window.days,
      totals: {
        ...metricsOf(sumRows(rows), distinctViewers(rows.map((row) => row.viewer_sketch))),
        revenue: netRevenue(outcomes),
      },
      daily: dates.map((date, i) => {
        const dayRows = days.get(date) ?? [];
        return {
          date,
          ...metricsOf(sumRows(dayRows), distinctViewers(dayRows.map((row) => row.viewer_sketch))),
          revenue: netRevenue(outcomesByDay.get(i + 1) ?? []),
        };
      }),
    };
  },
});
