/**
 * The Email tab's HTML: the outbox (list_emails) newest first, filtered by status, each message with
 * its recipient, purpose, status and attempts, the last error when it failed, its text to read, and
 * the link it carries in a read-only field to copy and hand over while no mail server is set.
 */
import { escapeHtml } from '../../http/page-parts.ts';
import { formatCount, formatDateTime } from '../kit/formats.ts';

export interface EmailRow {
  email_id: string;
  purpose: string;
  to: { address: string; name: string | null };
  subject: string;
  text: string;
  link: string | null;
  status: 'queued' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
  created_at: string;
}

export const EMAIL_STATUS_FILTERS = [
  { value: '', label: 'All' },
  { value: 'queued', label: 'Queued' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
] as const;

const STATUS_LABELS: Record<EmailRow['status'], string> = { queued: 'Queued', sent: 'Sent', failed: 'Failed' };

const PURPOSES: Record<string, string> = {
  invitation: 'Invitation',
  email_change: 'Email change',
  sign_in_link: 'Sign-in link',
};

export function emailStatusNav(current: string): string {
  return (
    '<nav class="segments" aria-label="Which messages">' +
    EMAIL_STATUS_FILTERS.map((filter) => {
      const href = filter.value ? `/app/settings/email?status=${filter.value}` : '/app/settings/email';
      return `<a href="${href}"${filter.value === current ? ' aria-current="page"' : ''}>${filter.label}</a>`;
    }).join('') +
    '</nav>'
  );
}

export function emailList(emails: EmailRow[], timeZone: string, total: number, status: string): string {
  if (emails.length === 0) {
    return status
      ? `<p class="empty">No ${escapeHtml(STATUS_LABELS[status as EmailRow['status']]?.toLowerCase() ?? '')} messages.</p>`
      : '<p class="empty">No messages yet. Invitations and the other messages Cuepoint sends for this workspace are listed here.</p>';
  }
  const items = emails.map((email) => {
    const recipient = email.to.name
      ? `${escapeHtml(email.to.name)} <span class="mono">&lt;${escapeHtml(email.to.address)}&gt;</span>`
      : `<span class="mono">${escapeHtml(email.to.address)}</span>`;
    const when =
      email.status === 'sent' && email.sent_at
        ? `sent ${formatDateTime(email.sent_at, timeZone)}`
        : `queued ${formatDateTime(email.created_at, timeZone)}`;
    const attempts = email.attempts === 0 ? 'not tried yet' : `${email.attempts} attempt${email.attempts === 1 ? '' : 's'}`;
    // A retry's time, once an attempt failed; a message never tried is simply waiting.
    const next =
      email.status === 'queued' && email.attempts > 0 && email.next_attempt_at
        ? ` · next try ${formatDateTime(email.next_attempt_at, timeZone)}`
        : '';
    const linkField = email.link
      ? `<div class="email-link"><label for="link-${escapeHtml(email.email_id)}">Its link</label>` +
        `<input id="link-${escapeHtml(email.email_id)}" type="text" readonly value="${escapeHtml(email.link)}" spellcheck="false">` +
        `<button type="button" data-copy="link-${escapeHtml(email.email_id)}" hidden>Copy link</button></div>`
      : '';
    return (
      `<li class="email"><p class="email-head"><span class="status ${email.status}">${STATUS_LABELS[email.status]}</span> ` +
      `<strong>${escapeHtml(email.subject)}</strong></p>` +
      `<p class="meta">To ${recipient}</p>` +
      `<p class="meta">${escapeHtml(PURPOSES[email.purpose] ?? email.purpose.replaceAll('_', ' '))} · ${escapeHtml(when)} · ${attempts}${escapeHtml(next)}</p>` +
      (email.last_error ? `<p class="email-error">Last error: ${escapeHtml(email.last_error)}</p>` : '') +
      linkField +
      `<details><summary>Read the message</summary><pre class="email-text">${escapeHtml(email.text)}</pre></details></li>`
    );
  });
  return (
    `<p class="hint">${formatCount(total)} message${total === 1 ? '' : 's'}, newest first. Times in the workspace’s time zone (${escapeHtml(timeZone)}).</p>` +
    `<ul class="emails">${items.join('')}</ul><p class="hint" role="status" id="copy-status"></p>`
  );
}
