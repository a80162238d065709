/**
 * The ledger as list_outcomes answers it: newest first, each entry with its amount in its currency,
 * its status, its lead (masked as the workspace says) and the videos it is credited to; per-currency
 * totals over everything the filters match, as tiles. A succeeded purchase offers "Refund" to a role
 * that may record outcomes (a refund is a ledger entry naming the purchase: record_outcome).
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount, formatDate, formatMoney } from '../kit/formats.ts';
import type { VideoRef } from '../leads/lead-words.ts';
import { type CurrencyTotals, kindLabel, type OutcomeList, type OutcomeView, outcomeStatusPill, signedAmount } from './outcome-words.ts';

/** One tile per currency: net first (what a person wants to know), then what it is made of. */
export function totalsTiles(totals: CurrencyTotals[]): string {
  if (totals.length === 0) return '';
  return (
    '<ul class="tiles revenue-totals" aria-label="Totals per currency">' +
    totals
      .map(
        (t) =>
          `<li class="tile"><p class="label">Net revenue · ${escapeHtml(t.currency)}</p><p class="value">${escapeHtml(formatMoney(t.net, t.currency))}</p>` +
          `<p class="change">${escapeHtml(formatMoney(t.purchases, t.currency))} purchased · ${escapeHtml(formatMoney(t.refunds, t.currency))} refunded</p>` +
          `<p class="change">${formatCount(t.count)} ${t.count === 1 ? 'entry' : 'entries'}</p></li>`,
      )
      .join('') +
    '</ul>'
  );
}

function videoCell(video: VideoRef | null): string {
  return video ? `<a href="/app/videos/${escapeHtml(video.video_id)}">${escapeHtml(video.title)}</a>` : '<span class="meta">—</span>';
}

function refundLink(outcome: OutcomeView): string {
  const query = new URLSearchParams({
    kind: 'refund',
    refunds_outcome_id: outcome.outcome_id,
    currency: outcome.currency,
    ...(outcome.lead ? { lead_id: outcome.lead.lead_id } : {}),
  });
  return `<a href="/app/revenue/new?${escapeHtml(query.toString())}" aria-label="Refund the ${escapeHtml(signedAmount(outcome))} purchase of ${escapeHtml(
    formatDate(outcome.occurred_at),
  )}">Refund</a>`;
}

function row(outcome: OutcomeView, timeZone: string, mayRefund: boolean): string {
  const lead = outcome.lead
    ? `<a href="/app/leads/${escapeHtml(outcome.lead.lead_id)}">${escapeHtml(outcome.lead.name ?? outcome.lead.email)}</a>`
    : '<span class="meta">No lead</span>';
  const source = outcome.source === 'api' ? 'API' : outcome.source.charAt(0).toUpperCase() + outcome.source.slice(1);
  const what = `<strong>${escapeHtml(kindLabel(outcome.kind))}</strong><span class="meta">${escapeHtml(
    outcome.description ? `${outcome.description} · ${source}` : `From ${source === 'API' ? 'the API' : source}`,
  )}</span>`;
  const refundable = mayRefund && outcome.kind === 'purchase' && outcome.status === 'succeeded';
  const touches = [
    ['First touch', outcome.first_touch_video],
    ['Last touch', outcome.last_touch_video],
    ['Credited', outcome.video],
  ] as const;
  const credit = touches.some(([, video]) => video)
    ? touches
        .filter(([, video]) => video)
        .map(([label, video]) => `<span class="touch"><span class="meta">${label}</span> ${videoCell(video)}</span>`)
        .join('')
    : '<span class="meta">No video</span>';
  return (
    `<tr><td class="entry-date"><time datetime="${escapeHtml(outcome.occurred_at)}">${escapeHtml(formatDate(outcome.occurred_at, timeZone))}</time></td>` +
    `<th scope="row"><div class="entry-what">${what}</div></th>` +
    `<td class="number amount${outcome.kind === 'refund' ? ' refund' : ''}">${escapeHtml(signedAmount(outcome))}</td>` +
    `<td class="entry-status">${outcomeStatusPill(outcome.status)}</td><td data-label="Lead">${lead}</td>` +
    `<td class="entry-credit">${credit}</td>` +
    (mayRefund ? `<td class="entry-actions${refundable ? '' : ' no-value'}">${refundable ? refundLink(outcome) : ''}</td>` : '') +
    '</tr>'
  );
}

export function ledgerTable(list: OutcomeList, timeZone: string, mayRefund: boolean): string {
  return (
    '<div class="table-scroll"><table class="ledger"><caption class="visually-hidden">Ledger entries, newest first</caption><thead><tr>' +
    '<th scope="col">Date</th><th scope="col">Entry</th><th scope="col" class="number">Amount</th><th scope="col">Status</th><th scope="col">Lead</th>' +
    '<th scope="col">Videos</th>' +
    (mayRefund ? '<th scope="col"><span class="visually-hidden">Actions</span></th>' : '') +
    '</tr></thead><tbody>' +
    list.outcomes.map((o) => row(o, timeZone, mayRefund)).join('') +
    '</tbody></table></div>'
  );
}
