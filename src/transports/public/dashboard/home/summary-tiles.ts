/**
 * The home page's numbers (get_analytics_summary): views, watch time, leads, conversions, route
 * completion and net revenue per currency, each with its change against the period just before,
 * written in words as well as arrows so colour is never the only signal.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount, formatMoney, formatShare, formatWatchTime } from '../kit/formats.ts';

export interface Comparison {
  value: number;
  previous: number;
  change_percent: number | null;
}

export interface AnalyticsSummary {
  metrics: {
    views: Comparison;
    watch_time_seconds: Comparison;
    leads: Comparison;
    conversions: Comparison;
    conversion_rate: Comparison;
  };
  revenue: { currency: string; value: number; previous: number; change_percent: number | null }[];
  routes: { starts: number; completions: number; completion_rate: number };
}

/** "↑ 12% from 40", "↓ 3% from 63", "new", "no change". */
export function changeText(comparison: Comparison, format: (value: number) => string): { text: string; trend: 'up' | 'down' | 'flat' } {
  if (comparison.change_percent === null)
    return comparison.value > 0 ? { text: 'new this period', trend: 'up' } : { text: 'none either period', trend: 'flat' };
  if (comparison.change_percent === 0) return { text: `no change from ${format(comparison.previous)}`, trend: 'flat' };
  const up = comparison.change_percent > 0;
  return {
    text: `${up ? '↑' : '↓'} ${Math.abs(comparison.change_percent)}% from ${format(comparison.previous)}`,
    trend: up ? 'up' : 'down',
  };
}

function tile(label: string, value: string, change: { text: string; trend: string }, href?: string): string {
  const heading = href ? `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>` : escapeHtml(label);
  return (
    `<div class="tile"><p class="label">${heading}</p><p class="value">${escapeHtml(value)}</p>` +
    `<p class="change ${change.trend}">${escapeHtml(change.text)}</p></div>`
  );
}

/**
 * How many tiles a row holds on a wide screen: at most four, in as few rows as that allows, with the
 * rows as even as they can be (seven tiles are 4 + 3, five are 3 + 2, never a row of one).
 */
export function balancedColumns(tiles: number): number {
  const rows = Math.max(1, Math.ceil(tiles / 4));
  return Math.max(1, Math.ceil(tiles / rows));
}

export function summaryTiles(summary: AnalyticsSummary, periodWords: string): string {
  const metrics = summary.metrics;
  const tiles = [
    tile('Views', formatCount(metrics.views.value), changeText(metrics.views, formatCount), '/app/videos'),
    tile('Watch time', formatWatchTime(metrics.watch_time_seconds.value), changeText(metrics.watch_time_seconds, formatWatchTime)),
    tile('New leads', formatCount(metrics.leads.value), changeText(metrics.leads, formatCount), '/app/leads'),
    tile(
      'Conversion rate',
      formatShare(metrics.conversion_rate.value),
      changeText(metrics.conversion_rate, (value) => formatShare(value)),
    ),
    ...summary.revenue.map((revenue) =>
      tile(
        `Net revenue, ${revenue.currency}`,
        formatMoney(revenue.value, revenue.currency),
        changeText(revenue, (value) => formatMoney(value, revenue.currency)),
        '/app/revenue',
      ),
    ),
    tile(
      'Route completion',
      summary.routes.starts === 0 ? '—' : formatShare(summary.routes.completion_rate),
      {
        text: `${formatCount(summary.routes.completions)} of ${formatCount(summary.routes.starts)} visits reached an end`,
        trend: 'flat',
      },
      '/app/routes',
    ),
  ];
  return `<section class="plain" aria-labelledby="numbers-heading"><h2 id="numbers-heading">${escapeHtml(periodWords)}</h2><div class="tiles columns-${balancedColumns(tiles.length)}">${tiles.join('')}</div></section>`;
}
