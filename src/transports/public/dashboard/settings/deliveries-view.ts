/**
 * An endpoint's deliveries log (list_webhook_deliveries): each event with its status, the attempts
 * made of the schedule, the last attempt's answer (HTTP status, time taken, error and the start of the
 * body), and a Retry for those that failed. Filtered by status with a GET form; paged by cursor.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { cursorPages } from '../kit/cursor-pages.ts';
import { formatCount, formatDateTime } from '../kit/formats.ts';
import { csrfField } from '../kit/page-route.ts';

export interface DeliveryRow {
  delivery_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed' | 'exhausted';
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_failure_reason: string | null;
  last_duration_ms: number | null;
  last_response_excerpt: string | null;
  delivered_at: string | null;
  created_at: string;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'exhausted'] as const;
const STATUS_WORDS: Record<DeliveryRow['status'], string> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Retrying',
  exhausted: 'Gave up',
};

export function deliveriesSection(spec: {
  csrf: string;
  endpointId: string;
  deliveries: DeliveryRow[];
  total: number;
  status: string;
  nextCursor: string | null;
  paged: boolean;
  timeZone: string;
}): string {
  const base = `/app/settings/webhooks/${spec.endpointId}`;
  const filter =
    `<form class="filters" method="get" action="${base}"><label for="f-delivery-status">Status<select id="f-delivery-status" name="status">` +
    `<option value="">Any</option>${DELIVERY_STATUSES.map((s) => `<option value="${s}"${s === spec.status ? ' selected' : ''}>${STATUS_WORDS[s]}</option>`).join('')}` +
    '</select></label><button type="submit">Filter</button></form>';
  const body = spec.deliveries.length
    ? '<div class="table-scroll"><table class="deliveries"><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col" class="number">Attempts</th>' +
      '<th scope="col">Last answer</th><th scope="col">Last attempt</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>' +
      spec.deliveries.map((delivery) => row(delivery, spec)).join('') +
      '</tbody></table></div>'
    : `<p class="empty">${spec.status ? 'No deliveries with this status.' : 'Nothing sent yet. “Send test event” tries the endpoint now.'}</p>`;
  const pages = cursorPages({
    path: base,
    keep: spec.status ? { status: spec.status } : {},
    paged: spec.paged,
    next: spec.nextCursor,
    label: 'Deliveries pages',
    older: 'Older deliveries',
  });
  return (
    '<section aria-labelledby="deliveries-heading" class="card">' +
    `<h2 id="deliveries-heading">Deliveries <span class="count">${formatCount(spec.total)}</span></h2>` +
    filter +
    body +
    pages +
    '</section>'
  );
}

function row(delivery: DeliveryRow, spec: { csrf: string; endpointId: string; timeZone: string }): string {
  const answer =
    delivery.attempts === 0
      ? '<span class="muted">Not tried yet</span>'
      : (delivery.last_status_code !== null ? `<strong>HTTP ${delivery.last_status_code}</strong>` : '<strong>No answer</strong>') +
        (delivery.last_duration_ms !== null ? ` <span class="muted">in ${formatCount(delivery.last_duration_ms)} ms</span>` : '') +
        (delivery.last_error ? `<span class="meta">${escapeHtml(delivery.last_error)}</span>` : '') +
        (delivery.last_response_excerpt
          ? `<details class="excerpt"><summary>Response body</summary><pre class="code">${escapeHtml(delivery.last_response_excerpt)}</pre></details>`
          : '');
  const when = delivery.last_attempt_at
    ? escapeHtml(formatDateTime(delivery.last_attempt_at, spec.timeZone)) +
      (delivery.next_attempt_at
        ? `<span class="meta">Next try ${escapeHtml(formatDateTime(delivery.next_attempt_at, spec.timeZone))}</span>`
        : '')
    : '<span class="muted">—</span>';
  const retry =
    delivery.status === 'failed' || delivery.status === 'exhausted'
      ? `<form method="post" action="/app/settings/webhooks/${spec.endpointId}/deliveries/${delivery.delivery_id}/retry">${csrfField(spec.csrf)}` +
        `<button type="submit" class="small" aria-label="Retry ${escapeHtml(delivery.event_type)} now">Retry now</button></form>`
      : '';
  return (
    `<tr><td><code>${escapeHtml(delivery.event_type)}</code><span class="meta">${escapeHtml(formatDateTime(delivery.created_at, spec.timeZone))}</span></td>` +
    `<td><span class="status ${delivery.status}">${STATUS_WORDS[delivery.status]}</span></td>` +
    `<td class="number">${delivery.attempts} of ${delivery.max_attempts}</td>` +
    `<td>${answer}</td><td>${when}</td><td class="row-actions">${retry}</td></tr>`
  );
}
