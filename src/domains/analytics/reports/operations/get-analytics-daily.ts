/**
 * get_analytics_daily: the workspace's metrics day by day between two dates (at most 366 days, in the
 * workspace time zone), every day present, with totals over the window. From the workspace's day
 * rollups: viewing and new leads per day, net revenue per day and currency; reads only.
 */
import { Type } from 'typebox';
import { eachDay } from '../../../../core/calendar/calendar-days.ts';
import { localDay } from '../../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../../core/operation.ts';
import type { OutcomeBucket } from '../../../outcomes/index.ts';
import { workspaceDayRows, workspaceRevenueDays } from '../../../viewing/index.ts';
import { workspaceTimeZone } from '../../../workspace/index.ts';
import { IsoDate, MetricProperties, WorkspaceLedgerProperties, WorkspaceTimeZone } from '../../analytics.schemas.ts';
import { resolveDateWindow } from '../date-range.ts';
import { byDay, distinctVideos, distinctViewers, metricsOf, type RollupRow, sumRows } from '../day-metrics.ts';
import { netRevenue, revenueDayBuckets } from '../net-revenue.ts';

const VideosWatched = Type.Integer({ minimum: 0, description: 'Videos with at least one view.' });

type Row = RollupRow & { new_leads: number; viewer_sketch: Uint8Array; video_sketch: Uint8Array };

function workspaceMetrics(rows: readonly Row[], outcomes: readonly OutcomeBucket[]) {
  return {
    ...metricsOf(sumRows(rows), distinctViewers(rows.map((row) => row.viewer_sketch))),
    videos_watched: distinctVideos(rows.map((row) => row.video_sketch)),
    leads: rows.reduce((sum, row) => sum + row.new_leads, 0),
    revenue: netRevenue(outcomes),
  };
}

export const getAnalyticsDaily = defineOperation({
  name: 'get_analytics_daily',
  summary: 'Get the workspace’s metrics day by day',
  description:
    'Returns one entry per calendar day (in the workspace time zone) from `from` to `to`, both included, every day present even ' +
    'without views: views, unique viewers, watch time, average engagement, completions, completion rate, conversions (call-to-action ' +
    'clicks plus leads captured by video forms), conversion rate, videos watched, new leads and net revenue per currency across the ' +
    'whole workspace, plus the same over the window. Default window: the 28 ' +
    'days ending today; at most 366 days. For one video use get_video_analytics.',
  method: 'GET',
  path: '/analytics/daily',
  group: 'Analytics',
  scope: 'analytics:read',
  write: false,
  errors: ['invalid_request'],
  input: Type.Object(
    {
      from: Type.Optional(IsoDate('First day (YYYY-MM-DD), included. Default: 27 days before `to`.')),
      to: Type.Optional(IsoDate('Last day (YYYY-MM-DD), included. Default: today in the workspace time zone.')),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      time_zone: WorkspaceTimeZone,
      from: IsoDate('First day of the series.'),
      to: IsoDate('Last day of the series.'),
      days: Type.Integer({ minimum: 1 }),
      totals: Type.Object(
        { ...MetricProperties, videos_watched: VideosWatched, ...WorkspaceLedgerProperties },
        { additionalProperties: false, description: 'Over the whole window; unique_viewers counts each viewer once.' },
      ),
      daily: Type.Array(
        Type.Object(
          { date: IsoDate('The calendar day.'), ...MetricProperties, videos_watched: VideosWatched, ...WorkspaceLedgerProperties },
          { additionalProperties: false },
        ),
        { description: 'One entry per day, in order; days without views are zeros.' },
      ),
    },
    { additionalProperties: false },
  ),
  example: { from: '2026-11-01', to: '2026-11-21' },
  async handler(ctx, input) {
    const timeZone = await workspaceTimeZone(ctx.db, ctx.workspaceId);
    const window = resolveDateWindow({ from: input.from, to: input.to }, { from: 'from', to: 'to' }, localDay(ctx.now, timeZone));
    const [rows, revenueDays] = await Promise.all([
      workspaceDayRows(ctx.db, ctx.workspaceId, window.from, window.to),
      workspaceRevenueDays(ctx.db, ctx.workspaceId, window.from, window.to),
    ]);
    const days = byDay(rows);
    // Every revenue day in one bucket (0), then by its own day.
    const outcomes = revenueDayBuckets(revenueDays, () => 0);
    const outcomesByDay = byDay(revenueDays);
    return {
      time_zone: timeZone,
      from: window.from,
      to: window.to,
      days: window.days,
      totals: workspaceMetrics(rows, outcomes),
      daily: eachDay(window.from, window.to).map((date) => ({
        date,
        ...workspaceMetrics(
          days.get(date) ?? [],
          revenueDayBuckets(outcomesByDay.get(date) ?? [], () => 0),
        ),
      })),
    };
  },
});
