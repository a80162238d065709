/**
 * /app, the workspace at a glance (issue 28): the period's numbers with their change
 * (get_analytics_summary), views day by day (get_analytics_daily), what changed in words
 * (list_changes), this week's calls (list_bookings), what needs attention, and the latest videos and
 * leads. Each widget is one operation, all asked at once; a widget whose scope the role lacks is left
 * out rather than shown empty.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { lineChart } from '../kit/charts.ts';
import { formatCompact, formatCount, formatDay } from '../kit/formats.ts';
import { type DashboardEnv, dashboardGet, type PageContext } from '../kit/page-route.ts';
import { attentionItems, attentionSection, type Changes } from './attention.ts';
import { type AnalyticsSummary, summaryTiles } from './summary-tiles.ts';
import { type UpcomingBooking, weekBookingsSection } from './week-bookings.ts';

const RANGES = { '7d': 7, '28d': 28, '90d': 90, '365d': 365 } as const;
type Range = keyof typeof RANGES;

const NOTICES: Record<string, string> = {
  video: 'The video is deleted.',
  lead: 'The lead is erased; their revenue stays, with no name.',
};

interface Daily {
  daily: { date: string; views: number }[];
}
interface VideoItem {
  video_id: string;
  title: string;
  status: string;
}
interface LeadItem {
  lead_id: string;
  email: string;
  name: string | null;
  status: string;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

function rangePicker(range: Range): string {
  const options = (Object.keys(RANGES) as Range[])
    .map((key) => `<option value="${key}"${key === range ? ' selected' : ''}>Last ${RANGES[key]} days</option>`)
    .join('');
  return `<form class="filters" method="get" action="/app"><label>Period<select name="range">${options}</select></label><button type="submit">Show</button></form>`;
}

function links(items: { href: string; label: string; meta: string }[], empty: string): string {
  if (items.length === 0) return `<p class="empty">${empty}</p>`;
  return `<ul class="rows">${items.map((item) => `<li><a href="${escapeHtml(item.href)}">${escapeHtml(item.label)}</a><span class="meta">${escapeHtml(item.meta)}</span></li>`).join('')}</ul>`;
}

async function homePage(context: PageContext) {
  const range: Range = context.query.range && context.query.range in RANGES ? (context.query.range as Range) : '28d';
  const days = RANGES[range];
  const now = context.deps.clock();
  const analytics = context.may('analytics:read');
  const changesCall = analytics
    ? context
        .call<Changes & { time_zone: string }>('list_changes', { days: Math.min(days, 90) })
        .then((answer) => (answer.ok ? answer.body : undefined))
    : Promise.resolve(undefined);
  const [summary, daily, changed, bookings, videos, leads, attention] = await Promise.all([
    analytics ? context.call<AnalyticsSummary>('get_analytics_summary', { range }) : undefined,
    analytics
      ? context.call<Daily>('get_analytics_daily', { from: isoDay(new Date(now.getTime() - (days - 1) * 86_400_000)), to: isoDay(now) })
      : undefined,
    changesCall,
    context.may('leads:read')
      ? context.call<{ bookings: UpcomingBooking[] }>('list_bookings', { scope: 'upcoming', limit: 20 })
      : undefined,
    context.call<{ videos: VideoItem[] }>('list_videos', { limit: 6 }),
    context.may('leads:read') ? context.call<{ leads: LeadItem[] }>('list_leads', { sort: 'newest', limit: 6 }) : undefined,
    attentionItems(context, changesCall),
  ]);
  const timeZone = changed?.time_zone ?? 'UTC';
  const notice = NOTICES[context.query.deleted ?? ''];
  const period = `The last ${days} days`;
  const chart =
    daily?.ok && daily.body.daily.length > 0
      ? lineChart({
          id: 'views-by-day',
          title: 'Views per day',
          description: `Views of every video, day by day over the last ${days} days: ${formatCount(
            daily.body.daily.reduce((sum, day) => sum + day.views, 0),
          )} in all, most on ${formatDay(daily.body.daily.reduce((best, day) => (day.views > best.views ? day : best)).date)}.`,
          series: [{ name: 'Views', points: daily.body.daily.map((day) => ({ label: formatDay(day.date), value: day.views })) }],
          format: formatCompact,
          xHeading: 'Day',
          width: 960,
        })
      : '';
  const sentences = changed?.summary.length
    ? `<ul class="sentences">${changed.summary.map((sentence) => `<li>${escapeHtml(sentence)}</li>`).join('')}</ul>`
    : '<p class="empty">Nothing to report yet.</p>';
  const content =
    (notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : '') +
    `<div class="title-row"><div><h1>Welcome, ${escapeHtml(context.session.person.name)}</h1>` +
    '<p class="lede">Here is how your videos are doing.</p></div>' +
    (analytics ? rangePicker(range) : '') +
    '</div>' +
    (summary?.ok ? summaryTiles(summary.body, period) : '') +
    '<div class="grid">' +
    (chart ? `<section aria-labelledby="views-by-day-caption" class="wide">${chart}</section>` : '') +
    (analytics ? `<section aria-labelledby="changes-heading"><h2 id="changes-heading">What changed</h2>${sentences}</section>` : '') +
    attentionSection(attention) +
    weekBookingsSection(bookings?.ok ? bookings.body.bookings : undefined, now, timeZone) +
    '<section aria-labelledby="videos-heading"><h2 id="videos-heading">Latest videos</h2>' +
    links(
      (videos.ok ? videos.body.videos : []).map((v) => ({ href: `/app/videos/${v.video_id}`, label: v.title, meta: v.status })),
      'No videos yet. <a href="/app/videos">Upload your first</a>.',
    ) +
    '</section>' +
    (leads
      ? '<section aria-labelledby="leads-heading"><h2 id="leads-heading">Latest leads</h2>' +
        links(
          (leads.ok ? leads.body.leads : []).map((l) => ({
            href: `/app/leads/${l.lead_id}`,
            label: l.name ? `${l.name} · ${l.email}` : l.email,
            meta: l.status,
          })),
          'No leads yet. They arrive from your videos’ forms, bookings and the API.',
        ) +
        '</section>'
      : '') +
    '</div>';
  return context.page('Home', content);
}

export function registerHomePage(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app', homePage);
}
