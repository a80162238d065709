/**
 * The frame of the account's sign-in method pages, /app/account/passkeys and /app/account/two-factor:
 * the dashboard's frame, a way back to the account page, tabs between the two, and the form styles
 * these pages need on top of the dashboard's (inputs, notices, the passkey list, the setup key).
 */

import { escapeHtml } from '../../http/page-parts.ts';
import { DASHBOARD_HEADERS, dashboardPage, type Frame } from '../frame/dashboard-page.ts';
import { dateTimeFormat } from '../kit/intl-formats.ts';

/** The sign-in method pages' rules are in the dashboard's one stylesheet (assets/dashboard/base.css). */
export const SIGN_IN_METHODS_HEADERS = DASHBOARD_HEADERS;

const TABS = [
  { id: 'passkeys', href: '/app/account/passkeys', label: 'Passkeys' },
  { id: 'two-factor', href: '/app/account/two-factor', label: 'Two-factor authentication' },
] as const;

export type SignInMethodsTab = (typeof TABS)[number]['id'];

export function signInMethodsPage(frame: Frame, tab: SignInMethodsTab, title: string, lede: string, content: string): string {
  const tabs = TABS.map((t) => `<a href="${t.href}"${t.id === tab ? ' aria-current="page"' : ''}>${escapeHtml(t.label)}</a>`).join('');
  return dashboardPage(
    title,
    frame,
    '<div class="narrow"><p class="crumbs"><a href="/app/account">← Account</a></p>' +
      `<h1>${escapeHtml(title)}</h1><p class="lede">${escapeHtml(lede)}</p>` +
      `<nav class="tabs" aria-label="Sign-in methods">${tabs}</nav>${content}</div>`,
  );
}

/** A notice after a change ("Passkey added."), read out as it appears. */
export function noticeBox(message: string | undefined): string {
  return message ? `<p class="notice" role="status">${escapeHtml(message)}</p>` : '';
}

export function alertBox(message: string | undefined): string {
  return message ? `<p class="alert" role="alert">${escapeHtml(message)}</p>` : '';
}

export function hiddenCsrf(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
}

/** A day as people read it ("29 Nov 2026"), in UTC, in a <time> with the instant itself. */
export function dayOf(at: Date): string {
  const text = dateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(at);
  return `<time datetime="${at.toISOString()}">${escapeHtml(text)}</time>`;
}
