/**
 * Revenue by day, from get_analytics_daily (net per currency per day in the workspace's days): one bar
 * chart per currency, since amounts in different currencies are never added together. The kit draws
 * it (SVG with a title, a description in words and the numbers in a table).
 */

import { escapeHtml } from '../../http/page-parts.ts';
import { barChart } from '../kit/charts.ts';
import { formatDate, formatDay, formatMoney, minorUnitDigits } from '../kit/formats.ts';
import { numberFormat } from '../kit/intl-formats.ts';
import type { Answer } from '../kit/page-route.ts';

export interface DailyRevenue {
  time_zone: string;
  from: string;
  to: string;
  daily: { date: string; revenue: { currency: string; value: number; purchased: number; refunded: number }[] }[];
  totals: { revenue: { currency: string; value: number; purchased: number; refunded: number }[] };
}

/** The window the chart asks for: the ledger's dates when both are set, else the operation's default (28 days to today). */
export function chartWindow(filters: Record<string, string>): Record<string, string> {
  if (filters.from_date && filters.to_date) return { from: filters.from_date, to: filters.to_date };
  if (filters.to_date) return { to: filters.to_date };
  if (filters.from_date) return { from: filters.from_date };
  return {};
}

function compactMoney(currency: string): (value: number) => string {
  const digits = minorUnitDigits(currency);
  return (value: number) => {
    try {
      return numberFormat('en-US', { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 }).format(
        value / 10 ** digits,
      );
    } catch {
      return formatMoney(value, currency);
    }
  };
}

export function revenueChartSection(answer: Answer<DailyRevenue> | undefined): string {
  const heading = '<h2 id="revenue-chart-heading">Revenue by day</h2>';
  const wrap = (body: string) => `<section class="revenue-chart" aria-labelledby="revenue-chart-heading">${heading}${body}</section>`;
  if (!answer) return '';
  if (!answer.ok) return wrap(`<p class="empty">${escapeHtml(answer.error.message)}</p>`);
  const daily = answer.body;
  const range = `${formatDate(`${daily.from}T12:00:00Z`)} – ${formatDate(`${daily.to}T12:00:00Z`)}`;
  const currencies = daily.totals.revenue.map((r) => r.currency);
  if (currencies.length === 0) {
    return wrap(`<p class="meta">${escapeHtml(range)}</p><p class="empty">No revenue in these days.</p>`);
  }
  const charts = currencies
    .map((currency) => {
      const total = daily.totals.revenue.find((r) => r.currency === currency);
      const bars = daily.daily.map((day) => ({
        label: formatDay(day.date),
        value: day.revenue.find((r) => r.currency === currency)?.value ?? 0,
      }));
      const best = bars.reduce((a, b) => (b.value > a.value ? b : a), bars[0] ?? { label: '', value: 0 });
      const format = (value: number) => formatMoney(value, currency);
      // On a phone the chart keeps a readable size and scrolls sideways inside its frame.
      return `<div class="chart-frame" tabindex="0" role="group" aria-label="Net revenue in ${escapeHtml(currency)}, scrolls sideways">${barChart(
        {
          id: `revenue-${currency.toLowerCase()}`,
          title: `Net revenue in ${currency}`,
          description: `${range}: ${format(total?.value ?? 0)} net over ${bars.length} days (${format(total?.purchased ?? 0)} purchased, ${format(total?.refunded ?? 0)} refunded); the best day was ${best.label} with ${format(best.value)}.`,
          bars,
          format: compactMoney(currency),
          xHeading: 'Day',
          valueHeading: `Net ${currency}`,
        },
      )}</div>`;
    })
    .join('');
  return wrap(`<p class="meta">${escapeHtml(range)}, in ${escapeHtml(daily.time_zone)} days; purchases minus refunds.</p>${charts}`);
}
