/**
 * How the revenue pages name ledger entries, and the shape of list_outcomes' answer as they read it
 * (declared here: the dashboard is a client of the catalog, not of the domain).
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatMoney } from '../kit/formats.ts';
import type { Pagination, VideoRef } from '../leads/lead-words.ts';

export const OUTCOME_KINDS = ['purchase', 'booked_call', 'refund'] as const;
export const OUTCOME_STATUSES = ['succeeded', 'pending', 'failed', 'canceled'] as const;

const KIND_LABELS: Record<string, string> = { purchase: 'Purchase', booked_call: 'Booked call', refund: 'Refund' };
const STATUS_LABELS: Record<string, string> = { succeeded: 'Succeeded', pending: 'Pending', failed: 'Failed', canceled: 'Canceled' };

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

export function outcomeStatusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}

export function outcomeStatusPill(status: string): string {
  return `<span class="status ${escapeHtml(status)}">${escapeHtml(outcomeStatusLabel(status))}</span>`;
}

export interface OutcomeView {
  outcome_id: string;
  kind: string;
  status: string;
  value: number;
  currency: string;
  lead: { lead_id: string; email: string; name: string | null } | null;
  video: VideoRef | null;
  first_touch_video: VideoRef | null;
  last_touch_video: VideoRef | null;
  refunded_outcome_id: string | null;
  external_id: string | null;
  source: string;
  description: string | null;
  occurred_at: string;
}

export interface CurrencyTotals {
  currency: string;
  count: number;
  purchases: number;
  refunds: number;
  net: number;
}

export interface OutcomeList {
  outcomes: OutcomeView[];
  pagination: Pagination;
  totals: { count: number; by_currency: CurrencyTotals[] };
  pii_redacted: boolean;
}

/** An entry's amount, a refund written as money going out. */
export function signedAmount(outcome: Pick<OutcomeView, 'kind' | 'value' | 'currency'>): string {
  const money = formatMoney(outcome.value, outcome.currency);
  return outcome.kind === 'refund' ? `−${money}` : money;
}
