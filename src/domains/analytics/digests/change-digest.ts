/**
 * The digest list_changes reads out: from each video's totals in two periods of equal length (a row
 * per video and period, dated with its period's first day), the views of each day, and the video
 * status events of the current one, the biggest movers in views, unusual drops and a few
 * plain sentences. Pure; every threshold is named here and in docs/analytics.md.
 */
import { eachDay } from '../../../core/calendar/calendar-days.ts';
import { changePercent, percent, round, shareOf } from '../../../core/values/reported-numbers.ts';
import { conversionsOf } from '../../viewing/index.ts';
import type { RollupRow } from '../reports/day-metrics.ts';

/** A mover changed by at least this many views … */
export const MOVER_MIN_VIEWS = 10;
/** … and by at least this share of its previous views (any rise from 0 qualifies). */
export const MOVER_MIN_SHARE = 0.2;
export const MAX_MOVERS = 5;
/** A day is unusually quiet below this share of the previous period's daily average … */
export const QUIET_DAY_SHARE = 0.5;
/** … when that average is at least this many views a day. */
export const QUIET_DAY_MIN_BASELINE = 10;
/** A video's rate drop counts with at least this many views in both periods … */
export const RATE_DROP_MIN_VIEWS = 20;
/** … when the rate falls by at least this much (absolute) and this share of its previous value. */
export const RATE_DROP_MIN_POINTS = 0.05;
export const RATE_DROP_MIN_SHARE = 0.3;
export const MAX_DROPS = 10;

export type DigestRow = RollupRow & { video_id: string; title: string };

interface VideoPeriods {
  video_id: string;
  title: string;
  now: Totals;
  before: Totals;
}

interface Totals {
  views: number;
  engagement_sum: number;
  completions: number;
  conversions: number;
  leads: number;
}

export interface Mover {
  video_id: string;
  title: string;
  views: number;
  previous_views: number;
  change: number;
  change_percent: number | null;
}

export interface UnusualDrop {
  kind: 'quiet_day' | 'rate_drop';
  video_id: string | null;
  title: string | null;
  date: string | null;
  metric: 'views' | 'average_engagement' | 'completion_rate' | 'conversion_rate';
  value: number;
  baseline: number;
  change_percent: number;
  description: string;
}

const zero = (): Totals => ({ views: 0, engagement_sum: 0, completions: 0, conversions: 0, leads: 0 });

function add(totals: Totals, row: RollupRow): void {
  totals.views += row.views;
  totals.engagement_sum += row.engagement_sum;
  totals.completions += row.completions;
  totals.conversions += row.conversions;
  totals.leads += row.leads;
}

export function perVideo(rows: readonly DigestRow[], currentFrom: string): VideoPeriods[] {
  const videos = new Map<string, VideoPeriods>();
  for (const row of rows) {
    let video = videos.get(row.video_id);
    if (!video) {
      video = { video_id: row.video_id, title: row.title, now: zero(), before: zero() };
      videos.set(row.video_id, video);
    }
    add(row.day >= currentFrom ? video.now : video.before, row);
  }
  return [...videos.values()];
}

export function findMovers(videos: readonly VideoPeriods[]): { up: Mover[]; down: Mover[] } {
  const movers = videos
    .map((video) => ({
      video_id: video.video_id,
      title: video.title,
      views: video.now.views,
      previous_views: video.before.views,
      change: video.now.views - video.before.views,
      change_percent: changePercent(video.now.views, video.before.views),
    }))
    .filter(
      (m) => Math.abs(m.change) >= MOVER_MIN_VIEWS && (m.previous_views === 0 || Math.abs(m.change) >= MOVER_MIN_SHARE * m.previous_views),
    );
  const order = (a: Mover, b: Mover) => Math.abs(b.change) - Math.abs(a.change) || a.title.localeCompare(b.title);
  return {
    up: movers
      .filter((m) => m.change > 0)
      .sort(order)
      .slice(0, MAX_MOVERS),
    down: movers
      .filter((m) => m.change < 0)
      .sort(order)
      .slice(0, MAX_MOVERS),
  };
}

const RATES = [
  ['average_engagement', 'average engagement', (t: Totals) => t.engagement_sum],
  ['completion_rate', 'completion rate', (t: Totals) => t.completions],
  ['conversion_rate', 'conversion rate', (t: Totals) => conversionsOf(t)],
] as const;

const pct = (value: number) => `${Math.round(value * 100)}%`;

/**
 * Quiet days (complete days of the current period, from `dailyViews`, far below the previous period's
 * daily average) and videos whose rates fell sharply between the periods.
 */
export function findUnusualDrops(
  rows: readonly DigestRow[],
  dailyViews: ReadonlyMap<string, number>,
  videos: readonly VideoPeriods[],
  period: { from: string; to: string; days: number; today: string },
): UnusualDrop[] {
  const drops: UnusualDrop[] = [];
  const previousViews = rows.filter((row) => row.day < period.from).reduce((sum, row) => sum + row.views, 0);
  const baseline = previousViews / period.days;
  if (baseline >= QUIET_DAY_MIN_BASELINE) {
    for (const date of eachDay(period.from, period.to).filter((day) => day < period.today)) {
      const views = dailyViews.get(date) ?? 0;
      if (views >= QUIET_DAY_SHARE * baseline) continue;
      drops.push({
        kind: 'quiet_day',
        video_id: null,
        title: null,
        date,
        metric: 'views',
        value: views,
        baseline: round(baseline, 1),
        change_percent: percent(((views - baseline) / baseline) * 100),
        description: `Only ${views} views on ${date}, against ${round(baseline, 1)} a day in the previous period: check that players still report (embeds, pages, ad blockers).`,
      });
    }
  }
  for (const video of videos) {
    if (video.now.views < RATE_DROP_MIN_VIEWS || video.before.views < RATE_DROP_MIN_VIEWS) continue;
    for (const [metric, label, numerator] of RATES) {
      const [value, before] = [shareOf(numerator(video.now), video.now.views), shareOf(numerator(video.before), video.before.views)];
      if (before - value < RATE_DROP_MIN_POINTS || (before - value) / before < RATE_DROP_MIN_SHARE) continue;
      drops.push({
        kind: 'rate_drop',
        video_id: video.video_id,
        title: video.title,
        date: null,
        metric,
        value,
        baseline: before,
        change_percent: percent(((value - before) / before) * 100),
        description: `“${video.title}”: ${label} fell from ${pct(before)} to ${pct(value)} (${video.before.views} → ${video.now.views} views).`,
      });
    }
  }
  return drops.sort((a, b) => a.change_percent - b.change_percent).slice(0, MAX_DROPS);
}

export interface StatusChange {
  video_id: string;
  title: string | null;
  at: string;
  reason?: string | null;
}

const quoted = (title: string | null) => (title ? `“${title}”` : 'a video no longer in the library');
const listed = (items: readonly StatusChange[], withReason = false) =>
  items
    .slice(0, 3)
    .map((item) => `${quoted(item.title)}${withReason && item.reason ? ` (${item.reason})` : ''}`)
    .join(', ') + (items.length > 3 ? ` and ${items.length - 3} more` : '');

/** The digest as a few sentences, most important first. */
export function summarize(digest: {
  days: number;
  views: { value: number; previous: number; change_percent: number | null };
  up: readonly Mover[];
  down: readonly Mover[];
  ready: readonly StatusChange[];
  failed: readonly StatusChange[];
  drops: readonly UnusualDrop[];
  /** Sentences on leads and revenue (ledger-digest.ts), read right after the views. */
  ledger?: readonly string[];
  /** Routes whose completion rate moved (route-digest.ts), read after the drops. */
  routes?: readonly string[];
}): string[] {
  const now = digest.days === 1 ? 'today so far' : `in the last ${digest.days} days`;
  const before = digest.days === 1 ? 'yesterday' : `in the ${digest.days} days before`;
  const { value, previous, change_percent } = digest.views;
  const sentences: string[] = [];
  if (value === 0 && previous === 0) sentences.push(`No views ${now}, and none ${before}.`);
  else if (change_percent === null) sentences.push(`${value} views ${now}; none ${before}.`);
  else {
    const direction = change_percent > 0 ? `up ${change_percent}%` : change_percent < 0 ? `down ${-change_percent}%` : 'unchanged';
    sentences.push(`${value} views ${now}, ${direction} from ${previous} ${before}.`);
  }
  sentences.push(...(digest.ledger ?? []));
  const [rise, fall] = [digest.up[0], digest.down[0]];
  if (rise) sentences.push(`Biggest rise: ${quoted(rise.title)}, ${rise.views} views against ${rise.previous_views}.`);
  if (fall) sentences.push(`Biggest fall: ${quoted(fall.title)}, ${fall.views} views against ${fall.previous_views}.`);
  if (digest.ready.length > 0)
    sentences.push(`${digest.ready.length} ${digest.ready.length === 1 ? 'video' : 'videos'} became ready: ${listed(digest.ready)}.`);
  if (digest.failed.length > 0)
    sentences.push(
      `${digest.failed.length} ${digest.failed.length === 1 ? 'video' : 'videos'} failed processing: ${listed(digest.failed, true)}.`,
    );
  for (const drop of digest.drops.slice(0, 3)) sentences.push(drop.description);
  const routes = digest.routes ?? [];
  sentences.push(...routes.slice(0, 3));
  if (!rise && !fall && digest.ready.length + digest.failed.length + digest.drops.length + routes.length === 0) {
    sentences.push(
      `Nothing else stands out: no video moved by ${MOVER_MIN_VIEWS}+ views and ${MOVER_MIN_SHARE * 100}%+, none became ready or failed, and nothing dropped unusually.`,
    );
  }
  return sentences;
}
