/**
 * get_analytics_summary: the workspace's numbers for the last 7, 28, 90 or 365 days (today included,
 * in the workspace time zone), each beside the period of the same length before it and the change in
 * percent. From the per-day rollups only; reads only.
 */
import { Type } from 'typebox';
import { addDays } from '../../../core/calendar/calendar-days.ts';
import { localDay } from '../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../core/operation.ts';
import { changePercent } from '../../../core/reported-numbers.ts';
import { StringEnum } from '../../../core/schemas.ts';
import { workspaceDayRows, workspaceTimeZone } from '../analytics.queries.ts';
import { Comparison, MetricProperties, Period, WorkspaceTimeZone } from '../analytics.schemas.ts';
import { distinctViewers, metricsOf, sumRows } from '../day-metrics.ts';

export const RANGES = { '7d': 7, '28d': 28, '90d': 90, '365d': 365 } as const;
const METRICS = [
  'views',
  'unique_viewers',
  'watch_time_seconds',
  'average_engagement',
  'completions',
  'completion_rate',
  'conversions',
  'conversion_rate',
  'videos_watched',
] as const;

export const getAnalyticsSummary = defineOperation({
  name: 'get_analytics_summary',
  summary: 'Get workspace totals for a range, against the period before',
  description:
    'Returns the whole workspace’s views, unique viewers, watch time, average engagement, completions, completion rate, ' +
    'conversions, conversion rate and number of videos watched over the last 7, 28 (default), 90 or 365 days, today included ' +
    'and counted in the workspace time zone; each comes with the value of the period of the same length just before and the ' +
    'change in percent (null when the earlier value is 0). Use get_analytics_daily for the day-by-day series.',
  method: 'GET',
  path: '/analytics/summary',
  group: 'Analytics',
  scope: 'analytics:read',
  write: false,
  errors: [],
  input: Type.Object(
    {
      range: Type.Optional(
        StringEnum(Object.keys(RANGES) as (keyof typeof RANGES)[], {
          default: '28d',
          description: 'How many days, ending today: 7d, 28d, 90d or 365d.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      range: Type.String(),
      time_zone: WorkspaceTimeZone,
      period: Period,
      previous_period: Period,
      metrics: Type.Object(
        Object.fromEntries(
          METRICS.map((name) => [
            name,
            Comparison(
              name === 'videos_watched'
                ? 'Videos with at least one view.'
                : ((MetricProperties[name] as { description?: string }).description ?? name),
            ),
          ]),
        ) as Record<(typeof METRICS)[number], ReturnType<typeof Comparison>>,
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  example: { range: '28d' },
  async handler(ctx, input) {
    const range = input.range ?? '28d';
    const days = RANGES[range];
    const timeZone = await workspaceTimeZone(ctx.db, ctx.workspaceId);
    const today = localDay(ctx.now, timeZone);
    const period = { from_date: addDays(today, -(days - 1)), to_date: today, days };
    const previous = { from_date: addDays(today, -(2 * days - 1)), to_date: addDays(today, -days), days };
    const rows = await workspaceDayRows(ctx.db, ctx.workspaceId, previous.from_date, today);
    const totals = (from: string) => {
      const inPeriod = rows.filter((row) => row.day >= from && row.day <= addDays(from, days - 1));
      const metrics = metricsOf(sumRows(inPeriod), distinctViewers(inPeriod.map((row) => row.viewer_sketch)));
      return { ...metrics, videos_watched: new Set(inPeriod.filter((row) => row.views > 0).map((row) => row.video_id)).size };
    };
    const [now, before] = [totals(period.from_date), totals(previous.from_date)];
    const metrics = Object.fromEntries(
      METRICS.map((name) => [name, { value: now[name], previous: before[name], change_percent: changePercent(now[name], before[name]) }]),
    ) as Record<(typeof METRICS)[number], { value: number; previous: number; change_percent: number | null }>;
    return { range, time_zone: timeZone, period, previous_period: previous, metrics };
  },
});
