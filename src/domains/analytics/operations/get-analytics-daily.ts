/**
 * get_analytics_daily: the workspace's metrics day by day between two dates (at most 366 days, in the
 * workspace time zone), every day present, with totals over the window. From the per-day rollups,
 * plus new leads and net revenue per day read by index from the leads and the ledger; reads only.
 */
import { Type } from 'typebox';
import { eachDay } from '../../../core/calendar/calendar-days.ts';
import { localDay } from '../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../core/operation.ts';
import { workspaceDayRows, workspaceTimeZone } from '../analytics.queries.ts';
import { IsoDate, MetricProperties, WorkspaceLedgerProperties, WorkspaceTimeZone } from '../analytics.schemas.ts';
import { resolveDateWindow } from '../date-range.ts';
import { localDayBoundaries } from '../day-boundaries.ts';
import { byDay, distinctViewers, metricsOf, type RollupRow, sumRows } from '../day-metrics.ts';
import { newLeadCounts, type OutcomeBucket, succeededOutcomes } from '../leads-and-revenue.queries.ts';
import { netRevenue } from '../net-revenue.ts';

const VideosWatched = Type.Integer({ minimum: 0, description: 'Videos with at least one view.' });

type Row = RollupRow & { video_id: string; viewer_sketch: Uint8Array };

function workspaceMetrics(rows: readonly Row[], leads: number, outcomes: readonly OutcomeBucket[]) {
  return {
    ...metricsOf(sumRows(rows), distinctViewers(rows.map((row) => row.viewer_sketch))),
    videos_watched: new Set(rows.filter((row) => row.views > 0).map((row) => row.video_id)).size,
    leads,
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
    // Lead and ledger bucket i + 1 is the window's day i.
    const boundaries = localDayBoundaries(window.from, window.to, timeZone);
    const [rows, leads, outcomes] = await Promise.all([
      workspaceDayRows(ctx.db, ctx.workspaceId, window.from, window.to),
      newLeadCounts(ctx.db, ctx.workspaceId, boundaries),
      succeededOutcomes(ctx.db, ctx.workspaceId, boundaries),
    ]);
    const days = byDay(rows);
    const outcomesByDay = Map.groupBy(outcomes, (entry) => entry.bucket);
    return {
      time_zone: timeZone,
      from: window.from,
      to: window.to,
      days: window.days,
      totals: workspaceMetrics(
        rows,
        leads.reduce((sum, count) => sum + count, 0),
        outcomes,
      ),
      daily: eachDay(window.from, window.to).map((date, i) => ({
        date,
        ...workspaceMetrics(days.get(date) ?? [], leads[i] ?? 0, outcomesByDay.get(i + 1) ?? []),
      })),
    };
  },
});
