/**
 * A lead's journey (get_lead_journey) drawn as a timeline: an ordered list, oldest first as the
 * operation tells it, grouped by day in the workspace's time zone, each step with its time, what
 * happened and the video it happened on (a link to the video's page). It is the accessible form of
 * the picture: a screen reader reads a list of steps, a sighted person sees a rail of coloured dots.
 * The summary above it (first and last touch, conversion, time to convert) is the journey's own.
 */

import { escapeHtml } from '../../http/page-parts.ts';
import { formatClock, formatDate, formatDateTime, formatMoney, formatShare, formatWatchTime } from '../kit/formats.ts';
import { dateTimeFormat } from '../kit/intl-formats.ts';
import { statusLabel, type VideoRef } from './lead-words.ts';

export interface JourneyEntry {
  kind: 'view' | 'cta_click' | 'form_submitted' | 'note' | 'status_changed' | 'outcome' | 'booking' | 'route_choice';
  at: string;
  video: VideoRef | null;
  view?: { watched_seconds: number; watched_share: number; furthest_seconds: number; completed: boolean; cta_clicks: number };
  cta?: { label: string | null; position_seconds: number | null };
  form?: { fields: string[] };
  note?: { body: string; author: string };
  status_change?: { from: string; to: string; author: string };
  outcome?: { outcome_id: string; kind: string; status: string; value: number; currency: string };
  details?: Record<string, string | number | boolean | null>;
}

interface Touch {
  at: string;
  video: VideoRef;
}

export interface Journey {
  entries: JourneyEntry[];
  total: number;
  earlier_omitted: number;
  summary: {
    first_touch: Touch | null;
    last_touch: Touch | null;
    conversion: { kind: 'purchase' | 'capture'; at: string } | null;
    time_to_conversion_seconds: number | null;
    sessions: number;
    videos_watched: number;
    watched_seconds: number;
  };
}

/** How many steps the page shows before "Show the whole journey". */
export const JOURNEY_SHOWN = 60;

const OUTCOME_WORDS: Record<string, string> = { purchase: 'Purchase', booked_call: 'Booked call', refund: 'Refund' };

function videoLink(video: VideoRef | null): string {
  return video ? `<a href="/app/videos/${escapeHtml(video.video_id)}">${escapeHtml(video.title)}</a>` : '';
}

function timeOf(iso: string, timeZone: string): string {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : dateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone }).format(date);
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(text)}</time>`;
}

/** What happened, in a sentence of HTML (the video linked), and the step's class for its dot. */
function describe(entry: JourneyEntry, timeZone: string): { kind: string; what: string; more: string } {
  const on = entry.video ? ` ${videoLink(entry.video)}` : '';
  switch (entry.kind) {
    case 'view': {
      const view = entry.view;
      const facts = view
        ? [
            `${formatShare(view.watched_share)} watched`,
            formatWatchTime(view.watched_seconds),
            view.completed ? 'completed' : `reached ${formatClock(view.furthest_seconds)}`,
            view.cta_clicks > 0 ? `${view.cta_clicks} CTA ${view.cta_clicks === 1 ? 'click' : 'clicks'}` : '',
          ].filter(Boolean)
        : [];
      return { kind: 'view', what: `Watched${on || ' a video'}`, more: escapeHtml(facts.join(' · ')) };
    }
    case 'cta_click': {
      const label = entry.cta?.label ? `“${entry.cta.label}”` : 'the call to action';
      const at = entry.cta?.position_seconds != null ? ` at ${formatClock(entry.cta.position_seconds)}` : '';
      return { kind: 'click', what: `Clicked ${escapeHtml(label)}${on ? ` in${on}` : ''}`, more: escapeHtml(at.trim()) };
    }
    case 'form_submitted':
      return {
        kind: 'form',
        what: `Filled the form${on ? ` on${on}` : ''}`,
        more: escapeHtml(`Asked: ${['email', ...(entry.form?.fields ?? []).filter((f) => f !== 'email')].join(', ').replaceAll('_', ' ')}`),
      };
    case 'note':
      return {
        kind: 'note',
        what: `Note by ${escapeHtml(entry.note?.author ?? 'someone')}`,
        more: `<q>${escapeHtml(entry.note?.body ?? '')}</q>`,
      };
    case 'status_changed':
      return {
        kind: 'status',
        what: `Status ${escapeHtml(statusLabel(entry.status_change?.from ?? ''))} → ${escapeHtml(statusLabel(entry.status_change?.to ?? ''))}`,
        more: escapeHtml(`by ${entry.status_change?.author ?? 'someone'}`),
      };
    case 'outcome': {
      const outcome = entry.outcome;
      if (!outcome) return { kind: 'money', what: 'An outcome', more: '' };
      return {
        kind: outcome.kind === 'refund' ? 'refund' : 'money',
        what: `${escapeHtml(OUTCOME_WORDS[outcome.kind] ?? outcome.kind)} ${escapeHtml(formatMoney(outcome.value, outcome.currency))}`,
        more: escapeHtml(outcome.status === 'succeeded' ? '' : outcome.status),
      };
    }
    case 'booking': {
      const d = entry.details ?? {};
      const action = String(d.action ?? 'booked');
      const start = typeof d.start === 'string' ? d.start : null;
      return {
        kind: action === 'canceled' ? 'refund' : 'booking',
        what: `${escapeHtml(action === 'canceled' ? 'Canceled' : action === 'rescheduled' ? 'Rescheduled' : 'Booked')} ${escapeHtml(String(d.event_type ?? 'a call'))}`,
        more: start ? `for ${escapeHtml(formatDateTime(start, timeZone))}` : '',
      };
    }
    case 'route_choice': {
      const d = entry.details ?? {};
      return {
        kind: 'click',
        what: `Chose “${escapeHtml(String(d.choice ?? ''))}” in ${d.route_id ? `<a href="/app/routes/${escapeHtml(String(d.route_id))}">${escapeHtml(String(d.route ?? 'a route'))}</a>` : escapeHtml(String(d.route ?? 'a route'))}`,
        more: entry.video ? `on ${videoLink(entry.video)}` : '',
      };
    }
    default:
      return { kind: 'other', what: escapeHtml(String((entry as { kind: string }).kind)), more: '' };
  }
}

function dayOf(iso: string, timeZone: string): string {
  return formatDate(iso, timeZone);
}

/** The timeline: steps grouped under their day, the latest `shown` of them unless `all`. */
export function journeyTimeline(journey: Journey, timeZone: string, options: { all: boolean; moreHref: string }): string {
  if (journey.entries.length === 0) {
    return '<p class="empty">Nothing yet: views, clicks, forms, notes and purchases will appear here as they happen.</p>';
  }
  const hidden = options.all ? 0 : Math.max(0, journey.entries.length - JOURNEY_SHOWN);
  const shown = journey.entries.slice(hidden);
  const groups: { day: string; entries: JourneyEntry[] }[] = [];
  for (const entry of shown) {
    const day = dayOf(entry.at, timeZone);
    const last = groups.at(-1);
    if (last && last.day === day) last.entries.push(entry);
    else groups.push({ day, entries: [entry] });
  }
  const earlier = hidden + journey.earlier_omitted;
  const intro =
    earlier > 0
      ? `<p class="meta journey-earlier">${earlier} earlier ${earlier === 1 ? 'step' : 'steps'} not shown.${
          hidden > 0 ? ` <a href="${escapeHtml(options.moreHref)}">Show the whole journey</a>` : ''
        }</p>`
      : '';
  return (
    intro +
    '<ol class="journey" aria-label="Journey, oldest first">' +
    groups
      .map(
        (group) =>
          `<li class="journey-day"><h3 class="journey-date">${escapeHtml(group.day)}</h3><ol class="journey-steps">${group.entries
            .map((entry) => {
              const step = describe(entry, timeZone);
              return `<li class="step k-${step.kind}"><span class="dot" aria-hidden="true"></span>${timeOf(entry.at, timeZone)}<div class="step-body"><span class="step-what">${step.what}</span>${
                step.more ? `<span class="step-more">${step.more}</span>` : ''
              }</div></li>`;
            })
            .join('')}</ol></li>`,
      )
      .join('') +
    '</ol>'
  );
}

/** A span of time as a person says it: 40 min, 5 h, 3 days. */
export function formatSpan(seconds: number): string {
  if (seconds < 3600) return formatWatchTime(seconds);
  const hours = Math.round(seconds / 3600);
  if (hours < 48) return `${hours} h`;
  const days = Math.round(seconds / 86400);
  return `${days} days`;
}

/** The journey's summary as tiles: where it began, where it stands, how long it took. */
export function journeySummary(journey: Journey, timeZone: string): string {
  const s = journey.summary;
  const touch = (t: Touch | null) =>
    t
      ? `<p class="value small">${videoLink(t.video)}</p><p class="change">${escapeHtml(formatDate(t.at, timeZone))}</p>`
      : '<p class="value small">—</p><p class="change">No views yet</p>';
  const conversion = s.conversion
    ? `<p class="value small">${s.conversion.kind === 'purchase' ? 'First purchase' : 'Captured'}</p><p class="change">${escapeHtml(formatDate(s.conversion.at, timeZone))}${
        s.time_to_conversion_seconds != null ? `, ${escapeHtml(formatSpan(s.time_to_conversion_seconds))} after the first view` : ''
      }</p>`
    : '<p class="value small">—</p>';
  return (
    '<div class="tiles journey-tiles">' +
    `<div class="tile"><p class="label">First touch</p>${touch(s.first_touch)}</div>` +
    `<div class="tile"><p class="label">Last touch</p>${touch(s.last_touch)}</div>` +
    `<div class="tile"><p class="label">Conversion</p>${conversion}</div>` +
    `<div class="tile"><p class="label">Watched</p><p class="value small">${escapeHtml(formatWatchTime(s.watched_seconds))}</p><p class="change">${s.sessions} ${
      s.sessions === 1 ? 'view' : 'views'
    } of ${s.videos_watched} ${s.videos_watched === 1 ? 'video' : 'videos'}</p></div>` +
    '</div>'
  );
}
