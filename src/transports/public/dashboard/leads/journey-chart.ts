/**
 * A lead's journey as a picture (issue 28 names "the lead journey" among the charts): one lane per
 * video the lead watched, time running left to right, a dot for each view (larger for more of the
 * video watched), a diamond for each click, form or route choice on that video, and a lane of its own
 * for money and calls. Drawn on the server as SVG in the kit's way: a figure with a title and a
 * description in words, the numbers per video in a table under "The numbers", colours from classes.
 * The ordered list under it (lead-journey.ts) tells every step in words.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatDate, formatShare, formatWatchTime } from '../kit/formats.ts';
import type { Journey, JourneyEntry } from './lead-journey.ts';

const WIDTH = 640;
const LANE = 30;
const LABEL = 176;
const PAD = { right: 16, top: 8, bottom: 26 };
/** Lanes shown: the videos watched most; the rest are counted in the description. */
const MOST_LANES = 6;

interface Lane {
  key: string;
  title: string;
  entries: JourneyEntry[];
  views: number;
  watched: number;
  bestShare: number;
}

function lanesOf(entries: JourneyEntry[]): { videos: Lane[]; money: JourneyEntry[]; hidden: number } {
  const byVideo = new Map<string, Lane>();
  const money: JourneyEntry[] = [];
  for (const entry of entries) {
    if (entry.kind === 'outcome' || entry.kind === 'booking') {
      money.push(entry);
      continue;
    }
    if (!entry.video || !['view', 'cta_click', 'form_submitted', 'route_choice'].includes(entry.kind)) continue;
    const lane = byVideo.get(entry.video.video_id) ?? {
      key: entry.video.video_id,
      title: entry.video.title,
      entries: [],
      views: 0,
      watched: 0,
      bestShare: 0,
    };
    lane.entries.push(entry);
    if (entry.kind === 'view' && entry.view) {
      lane.views += 1;
      lane.watched += entry.view.watched_seconds;
      lane.bestShare = Math.max(lane.bestShare, entry.view.watched_share);
    }
    byVideo.set(lane.key, lane);
  }
  const all = [...byVideo.values()].sort((a, b) => b.views - a.views || b.entries.length - a.entries.length);
  return { videos: all.slice(0, MOST_LANES), money, hidden: Math.max(0, all.length - MOST_LANES) };
}

function shortTitle(title: string): string {
  return title.length > 21 ? `${title.slice(0, 20)}…` : title;
}

export function journeyChart(journey: Journey, timeZone: string): string {
  const { videos, money, hidden } = lanesOf(journey.entries);
  if (videos.length === 0 && money.length === 0) return '';
  const times = journey.entries.map((e) => new Date(e.at).getTime()).filter((t) => !Number.isNaN(t));
  const start = Math.min(...times);
  const end = Math.max(...times);
  const lanes = [
    ...videos.map((v) => ({ title: v.title, entries: v.entries, money: false })),
    ...(money.length ? [{ title: 'Revenue and calls', entries: money, money: true }] : []),
  ];
  const height = PAD.top + lanes.length * LANE + PAD.bottom;
  const plot = WIDTH - LABEL - PAD.right;
  const x = (at: string) => {
    const t = new Date(at).getTime();
    return (LABEL + (end === start ? plot / 2 : ((t - start) / (end - start)) * plot)).toFixed(1);
  };
  const rows = lanes
    .map((lane, index) => {
      const y = PAD.top + index * LANE + LANE / 2;
      const marks = lane.entries
        .map((entry) => {
          const cx = x(entry.at);
          if (entry.kind === 'view') {
            const r = (3 + 5 * (entry.view?.watched_share ?? 0)).toFixed(1);
            return `<circle class="j-view" cx="${cx}" cy="${y}" r="${r}"/>`;
          }
          if (entry.kind === 'outcome') {
            const refund = entry.outcome?.kind === 'refund';
            return `<circle class="${refund ? 'j-refund' : 'j-money'}" cx="${cx}" cy="${y}" r="6"/>`;
          }
          if (entry.kind === 'booking')
            return `<rect class="j-money" x="${(Number(cx) - 5).toFixed(1)}" y="${y - 5}" width="10" height="10" rx="2"/>`;
          return `<rect class="j-act" x="${(Number(cx) - 4.5).toFixed(1)}" y="${y - 4.5}" width="9" height="9" transform="rotate(45 ${cx} ${y})"/>`;
        })
        .join('');
      return (
        `<line class="grid" x1="${LABEL}" x2="${WIDTH - PAD.right}" y1="${y}" y2="${y}"/>` +
        `<text class="tick lane" x="${LABEL - 8}" y="${y + 4}" text-anchor="end">${escapeHtml(shortTitle(lane.title))}</text>${marks}`
      );
    })
    .join('');
  const axisY = height - 8;
  const axis =
    `<text class="tick" x="${LABEL}" y="${axisY}" text-anchor="start">${escapeHtml(formatDate(new Date(start).toISOString(), timeZone))}</text>` +
    (end > start
      ? `<text class="tick" x="${WIDTH - PAD.right}" y="${axisY}" text-anchor="end">${escapeHtml(formatDate(new Date(end).toISOString(), timeZone))}</text>`
      : '');
  const views = videos.reduce((sum, v) => sum + v.views, 0);
  const purchases = money.filter((e) => e.kind === 'outcome' && e.outcome?.kind === 'purchase' && e.outcome.status === 'succeeded').length;
  const description =
    `${views} ${views === 1 ? 'view' : 'views'} across ${videos.length + hidden} ${videos.length + hidden === 1 ? 'video' : 'videos'}` +
    (videos[0] ? `, most of them of “${videos[0].title}”` : '') +
    `, from ${formatDate(new Date(start).toISOString(), timeZone)} to ${formatDate(new Date(end).toISOString(), timeZone)}` +
    (purchases ? `; ${purchases} ${purchases === 1 ? 'purchase' : 'purchases'}` : '') +
    (hidden ? `; ${hidden} more ${hidden === 1 ? 'video is' : 'videos are'} not drawn.` : '.');
  const table =
    '<details class="numbers"><summary>The numbers</summary><div class="table-scroll"><table><thead><tr><th scope="col">Video</th><th scope="col" class="number">Views</th><th scope="col" class="number">Watched</th><th scope="col" class="number">Most of it seen</th><th scope="col">First</th><th scope="col">Last</th></tr></thead><tbody>' +
    videos
      .map((v) => {
        const first = v.entries[0]?.at ?? '';
        const last = v.entries.at(-1)?.at ?? '';
        return `<tr><th scope="row"><a href="/app/videos/${escapeHtml(v.key)}">${escapeHtml(v.title)}</a></th><td class="number">${v.views}</td><td class="number">${escapeHtml(
          formatWatchTime(v.watched),
        )}</td><td class="number">${escapeHtml(formatShare(v.bestShare))}</td><td>${escapeHtml(formatDate(first, timeZone))}</td><td>${escapeHtml(formatDate(last, timeZone))}</td></tr>`;
      })
      .join('') +
    '</tbody></table></div></details>';
  const legend =
    '<ul class="legend"><li><span class="swatch j-view-swatch" aria-hidden="true"></span>View (larger: more watched)</li><li><span class="swatch j-act-swatch" aria-hidden="true"></span>Click, form or choice</li>' +
    (money.length ? '<li><span class="swatch j-money-swatch" aria-hidden="true"></span>Purchase or call</li>' : '') +
    '</ul>';
  // On a phone the picture keeps a readable size and scrolls sideways inside its frame (revenue.css).
  return (
    '<div class="chart-frame" tabindex="0" role="group" aria-label="The journey across videos, scrolls sideways">' +
    '<figure class="chart journey-chart" aria-labelledby="journey-chart-caption"><figcaption id="journey-chart-caption">Across videos</figcaption>' +
    `<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="journey-chart-title journey-chart-desc"><title id="journey-chart-title">The lead’s journey across videos</title><desc id="journey-chart-desc">${escapeHtml(
      description,
    )}</desc>${rows}${axis}</svg>${legend}${table}</figure></div>`
  );
}
