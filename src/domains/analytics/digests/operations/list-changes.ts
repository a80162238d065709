/**
 * list_changes: what changed across the workspace in the last few days, as a digest an assistant can
 * read out — views against the period before, biggest movers, videos that became ready or failed,
 * unusual drops, new leads, ledger entries and net revenue, routes whose completion rate moved, and
 * summary sentences. From the per-day rollups, the events outbox, and index range reads of leads, the
 * ledger and route visits; reads only.
 */
import { Type } from 'typebox';
import { addDays } from '../../../../core/calendar/calendar-days.ts';
import { localDay } from '../../../../core/calendar/time-zone.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { changePercent } from '../../../../core/values/reported-numbers.ts';
import { routeActivity } from '../../../routes/index.ts';
import { workspaceTimeZone } from '../../../workspace/index.ts';
import {
  Comparison,
  LeadVideo,
  Mover,
  NotablePurchase,
  Period,
  RevenueComparison,
  RouteChange,
  StatusChange,
  UnusualDrop,
  WorkspaceTimeZone,
} from '../../analytics.schemas.ts';
import { periodTotalsWithTitles, videoStatusEvents } from '../../reports/analytics.queries.ts';
import { localDayStart } from '../../reports/day-boundaries.ts';
import { leadsAndRevenue } from '../../reports/leads-and-revenue.queries.ts';
import { countOf, revenueChanges } from '../../reports/net-revenue.ts';
import { findMovers, findUnusualDrops, perVideo, summarize } from '../change-digest.ts';
import { ledgerSentences, topLeadVideos } from '../ledger-digest.ts';
import { findRouteChanges } from '../route-digest.ts';

/** Currencies list_changes names a biggest purchase for. */
const MAX_CURRENCIES = 10;

const change = (value: number, previous: number) => ({ value, previous, change_percent: changePercent(value, previous) });

export const listChanges = defineOperation({
  name: 'list_changes',
  summary: 'Get what changed across the workspace lately',
  description:
    'A digest of the last `days` days (1–90, default 7, today included, in the workspace time zone) against the same number of days ' +
    'before: total views and their change, the videos whose views rose or fell most (at least 10 views and 20%, so 1 → 2 is no news), ' +
    'videos that became ready or failed processing, unusual drops (quiet days, falling completion or conversion rates), new leads, ' +
    'succeeded purchases, refunds and booked calls, net revenue per currency (minor units), the biggest purchase per currency, the ' +
    'videos whose forms captured most leads, routes whose completion rate moved (20+ starts in both periods, 5+ points and 30%), ' +
    'and `summary`, a few sentences to read out. Start here for "how are my videos doing?".',
  method: 'GET',
  path: '/changes',
  group: 'Analytics',
  scope: 'analytics:read',
  write: false,
  errors: [],
  input: Type.Object(
    {
      days: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 90, default: 7, description: 'How many days to look back, today included.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      days: Type.Integer(),
      time_zone: WorkspaceTimeZone,
      period: Period,
      previous_period: Period,
      views: Comparison('Views across the workspace.'),
      movers_up: Type.Array(Mover, { description: 'Up to 5, biggest rise in views first.' }),
      movers_down: Type.Array(Mover, { description: 'Up to 5, biggest fall first.' }),
      became_ready: Type.Array(StatusChange, { description: 'Newest first, up to 20.' }),
      failed: Type.Array(StatusChange, { description: 'Newest first, up to 20.' }),
      unusual_drops: Type.Array(UnusualDrop, { description: 'Up to 10, steepest first.' }),
      leads: Comparison('New leads: leads created in the period, whatever their source.'),
      outcomes: Type.Object(
        {
          purchases: Comparison('Succeeded purchases.'),
          refunds: Comparison('Succeeded refunds.'),
          booked_calls: Comparison('Succeeded booked calls.'),
        },
        { additionalProperties: false, description: 'Ledger entries that succeeded, counted by when they happened.' },
      ),
      revenue: RevenueComparison('Net revenue per currency: succeeded purchases minus succeeded refunds.'),
      biggest_purchases: Type.Array(NotablePurchase, {
        description: `The biggest succeeded purchase of each currency in this period, by currency code; up to ${MAX_CURRENCIES}.`,
      }),
      top_lead_videos: Type.Array(LeadVideo, { description: 'Up to 3 videos whose forms captured the most leads in this period.' }),
      route_changes: Type.Array(RouteChange, { description: 'Up to 5 routes whose completion rate moved, largest move first.' }),
      summary: Type.Array(Type.String(), { description: 'Plain sentences, most important first.' }),
    },
    { additionalProperties: false },
  ),
  example: { days: 7 },
  async handler(ctx, input) {
    const days = input.days ?? 7;
    const timeZone = await workspaceTimeZone(ctx.db, ctx.workspaceId);
    const today = localDay(ctx.now, timeZone);
    const period = { from_date: addDays(today, -(days - 1)), to_date: today, days };
    const previous = { from_date: addDays(today, -(2 * days - 1)), to_date: addDays(today, -days), days };
    // The previous period is bucket 1, this one bucket 2.
    const boundaries = [previous.from_date, period.from_date, addDays(today, 1)].map((day) => localDayStart(day, timeZone));
    const [{ videos: rows, dailyViews }, events, { newLeads: leadCounts, outcomes, biggest }, routes] = await Promise.all([
      periodTotalsWithTitles(ctx.db, ctx.workspaceId, { from: previous.from_date, currentFrom: period.from_date, to: today }),
      videoStatusEvents(ctx.db, ctx.workspaceId, { day: period.from_date, timeZone }, 100),
      leadsAndRevenue(ctx.db, ctx.workspaceId, boundaries, MAX_CURRENCIES),
      routeActivity(ctx.db, ctx.workspaceId, boundaries),
    ]);
    const videos = perVideo(rows, period.from_date);
    const movers = findMovers(videos);
    const drops = findUnusualDrops(rows, dailyViews, videos, { from: period.from_date, to: today, days, today });
    const routeChanges = findRouteChanges(routes, 2, 1);
    const viewsNow = rows.filter((row) => row.day >= period.from_date).reduce((sum, row) => sum + row.views, 0);
    const viewsBefore = rows.filter((row) => row.day < period.from_date).reduce((sum, row) => sum + row.views, 0);
    const views = change(viewsNow, viewsBefore);
    const changes = events.map((event) => ({
      video_id: event.video_id,
      title: event.title,
      at: event.at.toISOString(),
      reason: event.reason,
    }));
    const ready = changes.filter((_, i) => events[i]?.type === 'video.ready').slice(0, 20);
    const failed = changes.filter((_, i) => events[i]?.type === 'video.failed').slice(0, 20);
    const leads = change(leadCounts[1] ?? 0, leadCounts[0] ?? 0);
    const counts = (kind: 'purchase' | 'refund' | 'booked_call') => change(countOf(outcomes, kind, 2), countOf(outcomes, kind, 1));
    const ledger = {
      leads,
      outcomes: { purchases: counts('purchase'), refunds: counts('refund'), booked_calls: counts('booked_call') },
      revenue: revenueChanges(outcomes, 2, 1),
      biggest_purchases: biggest.map((purchase) => ({ ...purchase, occurred_at: purchase.occurred_at.toISOString() })),
      top_lead_videos: topLeadVideos(rows, period.from_date),
    };
    return {
      days,
      time_zone: timeZone,
      period,
      previous_period: previous,
      views,
      movers_up: movers.up,
      movers_down: movers.down,
      became_ready: ready,
      failed,
      unusual_drops: drops,
      ...ledger,
      route_changes: routeChanges,
      summary: summarize({
        days,
        views,
        up: movers.up,
        down: movers.down,
        ready,
        failed,
        drops,
        routes: routeChanges.map((route) => route.description),
        ledger: ledgerSentences({
          days,
          timeZone,
          leads,
          outcomes: ledger.outcomes,
          revenue: ledger.revenue,
          biggest: ledger.biggest_purchases,
          leadVideos: ledger.top_lead_videos,
        }),
      }),
    };
  },
});
