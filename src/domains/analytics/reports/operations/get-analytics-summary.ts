/**
 * get_analytics_summary: the workspace's numbers for the last 7, 28, 90 or 365 days (today included,
 * in the workspace time zone), each beside the period of the same length before it and the change in
 * percent. From the workspace's day rollups (one row per day for viewing and new leads, one per day
 * and currency for net revenue, whatever the size of the library and of its history), plus the
 * period's route visits (starts, completions, the routes started most) and the public channel's
 * views and opens; reads only.
 */
import { Type } from 'typebox';
import { addDays } from '../../../../core/calendar/calendar-days.ts';
import { localDay } from '../../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { StringEnum } from '../../../../core/schemas.ts';
import { changePercent } from '../../../../core/values/reported-numbers.ts';
import { channelActivity } from '../../../channel/index.ts';
import { routeActivity } from '../../../routes/index.ts';
import { workspaceDayRows, workspaceRevenueDays } from '../../../viewing/index.ts';
import { workspaceTimeZone } from '../../../workspace/index.ts';
import {
  ChannelSection,
  Comparison,
  MetricProperties,
  Period,
  RevenueComparison,
  RoutesSection,
  WorkspaceTimeZone,
} from '../../analytics.schemas.ts';
import { routesSection } from '../../digests/route-digest.ts';
import { localDayStart } from '../day-boundaries.ts';
import { distinctVideos, distinctViewers, metricsOf, sumRows } from '../day-metrics.ts';
import { revenueChanges, revenueDayBuckets } from '../net-revenue.ts';

const MAX_TOP_CHANNEL_ITEMS = 5;

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
  'leads',
] as const;

const DESCRIPTIONS: Partial<Record<(typeof METRICS)[number], string>> = {
  videos_watched: 'Videos with at least one view.',
  leads: 'New leads: leads created in the period, whatever their source (forms, API, bookings, imports, Stripe).',
};

export const getAnalyticsSummary = defineOperation({
  name: 'get_analytics_summary',
  summary: 'Get workspace totals for a range, against the period before',
  description:
    'Returns the whole workspace’s views, unique viewers, watch time, average engagement, completions, completion rate, ' +
    'conversions (call-to-action clicks plus leads captured by video forms), conversion rate, videos watched and new leads over ' +
    'the last 7, 28 (default), 90 or 365 days, today included, in the workspace time zone, plus net revenue per currency ' +
    '(purchases − refunds, minor units); each beside the period of the same length just before and the change in percent ' +
    '(null when the earlier value is 0); and `routes`: starts, completions and completion rate of interactive routes in the ' +
    'period, with the 5 routes started most; and `channel`: views, visitors and opens of the public channel page, with ' +
    'the 5 items opened most. Use get_analytics_daily for the day-by-day series.',
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
              DESCRIPTIONS[name] ??
                (MetricProperties[name as keyof typeof MetricProperties] as { description?: string }).description ??
                name,
            ),
          ]),
        ) as Record<(typeof METRICS)[number], ReturnType<typeof Comparison>>,
        { additionalProperties: false },
      ),
      revenue: RevenueComparison('Net revenue per currency: succeeded purchases minus succeeded refunds, by when they happened.'),
      routes: RoutesSection,
      channel: ChannelSection,
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
    // Where the two periods begin and this one ends, for route visits and channel views.
    const boundaries = [previous.from_date, period.from_date, addDays(today, 1)].map((day) => localDayStart(day, timeZone));
    const [rows, revenueDays, routes, channel] = await Promise.all([
      workspaceDayRows(ctx.db, ctx.workspaceId, previous.from_date, today),
      workspaceRevenueDays(ctx.db, ctx.workspaceId, previous.from_date, today),
      routeActivity(ctx.db, ctx.workspaceId, boundaries.slice(1)),
      channelActivity(ctx.db, ctx.workspaceId, { from: boundaries[1] as Date, to: boundaries[2] as Date }),
    ]);
    const totals = (from: string) => {
      const inPeriod = rows.filter((row) => row.day >= from && row.day <= addDays(from, days - 1));
      const metrics = metricsOf(sumRows(inPeriod), distinctViewers(inPeriod.map((row) => row.viewer_sketch)));
      return {
        ...metrics,
        videos_watched: distinctVideos(inPeriod.map((row) => row.video_sketch)),
        leads: inPeriod.reduce((sum, row) => sum + row.new_leads, 0),
      };
    };
    const [now, before] = [totals(period.from_date), totals(previous.from_date)];
    const metrics = Object.fromEntries(
      METRICS.map((name) => [name, { value: now[name], previous: before[name], change_percent: changePercent(now[name], before[name]) }]),
    ) as Record<(typeof METRICS)[number], { value: number; previous: number; change_percent: number | null }>;
    // The previous period is bucket 1, this one bucket 2.
    const revenue = revenueChanges(
      revenueDayBuckets(revenueDays, (day) => (day >= period.from_date ? 2 : 1)),
      2,
      1,
    );
    // Routes were read for this period only (the boundaries from its start): bucket 1.
    return {
      range,
      time_zone: timeZone,
      period,
      previous_period: previous,
      metrics,
      revenue,
      routes: routesSection(routes, 1),
      channel: {
        views: channel.views,
        visitors: channel.visitors,
        opens: channel.opens,
        top: channel.opensByItem.slice(0, MAX_TOP_CHANNEL_ITEMS).map(({ kind, id, title, opens }) => ({ kind, id, title, opens })),
      },
    };
  },
});
