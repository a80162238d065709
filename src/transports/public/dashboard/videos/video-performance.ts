/**
 * Daily views, watch time and conversions (get_video_analytics) for a chosen window: the last 7, 30
 * or 90 days (links) or dates chosen in a GET form, drawn as charts with their numbers, and the
 * window's totals: conversions, leads and revenue per currency (never added across currencies).
 */

import { escapeHtml } from '../../http/page-parts.ts';
import { barChart, lineChart } from '../kit/charts.ts';
import {
  formatCompact,
  formatCount,
  formatDate,
  formatDay,
  formatMoney,
  formatShare,
  formatWatchTime,
  minorUnitDigits,
} from '../kit/formats.ts';
import type { AnalyticsAnswer, Part, Revenue } from './video-answers.ts';
import { type ChosenRange, RANGE_PRESETS } from './video-range.ts';

/** The window's controls: preset links (the current one marked) and a GET form for dates. */
function rangeControls(pagePath: string, range: ChosenRange, keep: Record<string, string>): string {
  const kept = Object.entries(keep).filter(([, value]) => value !== '');
  const presetHref = (days: number) => {
    const query = new URLSearchParams([...kept, ['range', String(days)]]);
    return `${pagePath}?${query.toString()}#performance`;
  };
  const links = RANGE_PRESETS.map((days) => {
    const current = range.kind === 'preset' && range.days === days;
    // "Last" is only hidden from sight on a phone, so the link's name stays "Last 7 days" everywhere.
    return `<a href="${escapeHtml(presetHref(days))}"${current ? ' aria-current="true"' : ''}><span class="video-preset-last">Last </span>${days} days</a>`;
  }).join('');
  const from = range.kind === 'preset' ? '' : range.from;
  const to = range.kind === 'preset' ? '' : range.to;
  const problem = (field: 'from' | 'to') => (range.kind === 'invalid' ? range.problems.find((p) => p.field === field)?.problem : undefined);
  const dateField = (field: 'from' | 'to', label: string, value: string) => {
    const error = problem(field);
    return (
      `<label>${label}<input type="date" name="${field}" value="${escapeHtml(value)}"${error ? ` aria-invalid="true" aria-describedby="range-${field}-error"` : ''}>` +
      (error ? `<span class="field-error" id="range-${field}-error">${escapeHtml(error)}</span>` : '') +
      '</label>'
    );
  };
  return (
    '<div class="video-range">' +
    `<nav class="video-presets" aria-label="Window">${links}</nav>` +
    `<form class="filters" method="get" action="${escapeHtml(pagePath)}#performance">` +
    kept.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('') +
    dateField('from', 'First day', from) +
    dateField('to', 'Last day', to) +
    '<button type="submit">Show</button></form></div>'
  );
}

/** Minor units to an amount: cents for dollars, none for yen (the currency's own digits). */
function majorUnits(revenue: Revenue): number {
  return revenue.value / 10 ** minorUnitDigits(revenue.currency);
}

function windowTiles(analytics: AnalyticsAnswer): string {
  const totals = analytics.totals;
  const revenue =
    totals.revenue.length === 0 ? 'None' : totals.revenue.map((entry) => formatMoney(majorUnits(entry), entry.currency)).join(' · ');
  const tiles: [string, string, string][] = [
    ['Views', formatCount(totals.views), `${formatCount(totals.unique_viewers)} unique viewers`],
    ['Watch time', formatWatchTime(totals.watch_time_seconds), `${formatShare(totals.average_engagement)} watched per view`],
    ['Conversions', formatCount(totals.conversions), `${formatShare(totals.conversion_rate)} of views`],
    ['Leads', formatCount(totals.leads), 'captured by its form'],
    ['Revenue', revenue, 'net, attributed by last touch'],
  ];
  return (
    '<ul class="tiles video-tiles" aria-label="In this window">' +
    tiles
      .map(
        ([label, value, change]) =>
          `<li class="tile"><p class="label">${escapeHtml(label)}</p><p class="value">${escapeHtml(value)}</p><p class="change">${escapeHtml(change)}</p></li>`,
      )
      .join('') +
    '</ul>'
  );
}

function peakDay(analytics: AnalyticsAnswer, pick: (day: AnalyticsAnswer['daily'][number]) => number): string {
  const best = analytics.daily.reduce(
    (top, day) => (pick(day) > pick(top) ? day : top),
    analytics.daily[0] as AnalyticsAnswer['daily'][number],
  );
  return pick(best) > 0 ? ` The busiest day was ${formatDay(best.date)}.` : '';
}

function charts(analytics: AnalyticsAnswer): string {
  const days = analytics.daily;
  const span = `${formatDay(analytics.from_date)} to ${formatDay(analytics.to_date)}`;
  const views = lineChart({
    id: 'daily-views',
    title: 'Views per day',
    description: `${formatCount(analytics.totals.views)} views and ${formatCount(analytics.totals.unique_viewers)} unique viewers from ${span}.${peakDay(analytics, (d) => d.views)}`,
    series: [
      { name: 'Views', points: days.map((day) => ({ label: formatDay(day.date), value: day.views })) },
      { name: 'Unique viewers', points: days.map((day) => ({ label: formatDay(day.date), value: day.unique_viewers })) },
    ],
    format: formatCompact,
    xHeading: 'Day',
  });
  const watch = barChart({
    id: 'daily-watch-time',
    title: 'Watch time per day (minutes)',
    description: `${formatWatchTime(analytics.totals.watch_time_seconds)} watched from ${span}.${peakDay(analytics, (d) => d.watch_time_seconds)}`,
    bars: days.map((day) => ({ label: formatDay(day.date), value: day.watch_time_seconds / 60 })),
    format: (minutes) => formatCompact(Math.round(minutes * 10) / 10),
    xHeading: 'Day',
    valueHeading: 'Minutes',
  });
  const conversions = lineChart({
    id: 'daily-conversions',
    title: 'Conversions and leads per day',
    description: `${formatCount(analytics.totals.conversions)} conversions and ${formatCount(analytics.totals.leads)} leads from ${span}.`,
    series: [
      { name: 'Conversions', points: days.map((day) => ({ label: formatDay(day.date), value: day.conversions })) },
      { name: 'Leads', points: days.map((day) => ({ label: formatDay(day.date), value: day.leads })) },
    ],
    format: formatCompact,
    xHeading: 'Day',
  });
  return `<div class="video-charts">${views}${watch}${conversions}</div>`;
}

export function performancePart(
  answer: Part<AnalyticsAnswer> | undefined,
  pagePath: string,
  range: ChosenRange,
  keep: Record<string, string>,
): string {
  const controls = rangeControls(pagePath, range, keep);
  if (!answer) return `${controls}<p class="empty">Choose the first and the last day of the window.</p>`;
  if (!answer.ok) return `${controls}<p class="alert" role="alert">${escapeHtml(answer.message)}</p>`;
  const analytics = answer.body;
  const heading = `<p class="video-summary">${escapeHtml(formatDate(`${analytics.from_date}T12:00:00Z`))} – ${escapeHtml(formatDate(`${analytics.to_date}T12:00:00Z`))} · ${analytics.days} days · ${escapeHtml(analytics.time_zone)}</p>`;
  return controls + heading + windowTiles(analytics) + charts(analytics);
}
