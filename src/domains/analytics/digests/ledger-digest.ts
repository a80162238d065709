/**
 * What list_changes says about leads and the ledger: the videos whose forms captured the most
 * leads, and sentences on new leads, net revenue per currency, booked calls and the biggest
 * purchase. Pure; amounts are minor units, read out with their currency (net-revenue.ts, money).
 */
import { localDay } from '../../../core/calendar/time-zone.ts';
import { money, type RevenueChange } from '../reports/net-revenue.ts';
import type { DigestRow } from './change-digest.ts';

/** How many videos the digest names for leads captured. */
export const MAX_LEAD_VIDEOS = 3;

export interface LeadVideo {
  video_id: string;
  title: string;
  leads: number;
  previous_leads: number;
}

export interface Change {
  value: number;
  previous: number;
  change_percent: number | null;
}

export interface NotablePurchase {
  outcome_id: string;
  lead_id: string | null;
  value: number;
  currency: string;
  video_id: string | null;
  title: string | null;
  occurred_at: string;
}

/** Videos whose forms captured leads in the current period, most first (ties: title). */
export function topLeadVideos(rows: readonly DigestRow[], currentFrom: string): LeadVideo[] {
  const videos = new Map<string, LeadVideo>();
  for (const row of rows) {
    if (row.leads === 0) continue;
    let video = videos.get(row.video_id);
    if (!video) {
      video = { video_id: row.video_id, title: row.title, leads: 0, previous_leads: 0 };
      videos.set(row.video_id, video);
    }
    if (row.day >= currentFrom) video.leads += row.leads;
    else video.previous_leads += row.leads;
  }
  return [...videos.values()]
    .filter((video) => video.leads > 0)
    .sort((a, b) => b.leads - a.leads || a.title.localeCompare(b.title))
    .slice(0, MAX_LEAD_VIDEOS);
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function direction(change: Change): string {
  if (change.change_percent === null) return '';
  if (change.change_percent > 0) return `up ${change.change_percent}%`;
  if (change.change_percent < 0) return `down ${-change.change_percent}%`;
  return 'unchanged';
}

/** The ledger's part of the digest, as sentences; none when there were no leads or sales in either period. */
export function ledgerSentences(digest: {
  days: number;
  timeZone: string;
  leads: Change;
  outcomes: { purchases: Change; booked_calls: Change; refunds: Change };
  revenue: readonly RevenueChange[];
  biggest: readonly NotablePurchase[];
  leadVideos: readonly LeadVideo[];
}): string[] {
  const now = digest.days === 1 ? 'today so far' : `in the last ${digest.days} days`;
  const before = digest.days === 1 ? 'yesterday' : `in the ${digest.days} days before`;
  const sentences: string[] = [];
  const { leads } = digest;
  if (leads.value > 0 || leads.previous > 0) {
    const count = plural(leads.value, 'new lead', 'new leads');
    if (leads.value === 0) sentences.push(`No new leads ${now}, against ${leads.previous} ${before}.`);
    else if (leads.previous === 0) sentences.push(`${count} ${now}; none ${before}.`);
    else sentences.push(`${count} ${now}, ${direction(leads)} from ${leads.previous} ${before}.`);
  }
  const top = digest.leadVideos[0];
  if (top) sentences.push(`Most leads captured: ${quoted(top.title)}, ${plural(top.leads, 'lead', 'leads')} from its form.`);
  if (digest.revenue.length > 0) {
    const amounts = digest.revenue.map((r) => {
      if (r.previous === 0) return `${money(r.value, r.currency)} (none ${before})`;
      const change = direction(r);
      return `${money(r.value, r.currency)} (${change ? `${change} ` : ''}from ${money(r.previous, r.currency)})`;
    });
    const { purchases, refunds } = digest.outcomes;
    const counts = [plural(purchases.value, 'purchase', 'purchases'), plural(refunds.value, 'refund', 'refunds')].join(', ');
    sentences.push(`Net revenue ${now}: ${amounts.join('; ')}, from ${counts}.`);
  }
  for (const purchase of digest.biggest.slice(0, 2)) {
    const video = purchase.video_id === null ? 'with no video attributed' : `last touch ${quoted(purchase.title)}`;
    sentences.push(
      `Biggest purchase: ${money(purchase.value, purchase.currency)} on ${localDay(new Date(purchase.occurred_at), digest.timeZone)}, ${video}.`,
    );
  }
  const calls = digest.outcomes.booked_calls;
  if (calls.value > 0) sentences.push(`${plural(calls.value, 'call', 'calls')} booked ${now} (${calls.previous} ${before}).`);
  return sentences;
}

const quoted = (title: string | null) => (title ? `“${title}”` : 'a video no longer in the library');
