/**
 * The frame of every dashboard page: a skip link, a top bar with the product, search (`/` jumps to
 * it), the workspace (a switcher when the person has several), their name and role, "Account" and the
 * "Sign out" button (a form post, DESIGN §10); the primary navigation with DESIGN §10's names, each
 * area offered to the roles that can read it; then the page's own content. Server-rendered; the
 * stylesheet and the one shared script are files, so the policy allows no inline code at all.
 */
import { escapeHtml, securityHeaders } from '../../http/page-parts.ts';
import { assetUrl } from './dashboard-assets.ts';
import type { NavigationItem } from './navigation.ts';

/** The headers of every dashboard page: the public pages' strict policy, our stylesheet, never framed. */
function dashboardHeaders(): Record<string, string> {
  const headers = securityHeaders('self', '');
  return {
    ...headers,
    'Content-Security-Policy': (headers['Content-Security-Policy'] as string)
      .replace(/style-src [^;]+/, "style-src 'self'")
      .replace("form-action 'none'", "form-action 'self'")
      .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
      // The channel area previews the public page in a frame of our own origin.
      .replace("default-src 'none'", "default-src 'none'; frame-src 'self'"),
    'X-Frame-Options': 'DENY',
  };
}

export const DASHBOARD_HEADERS: Record<string, string> = dashboardHeaders();

export interface Frame {
  personName: string;
  workspaceName: string | null;
  role: string | null;
  /** Other workspaces the person may switch to. */
  workspaces: { id: string; name: string; current: boolean }[];
  csrf: string;
  /** The areas this person may open, and which one the page belongs to. */
  navigation: { items: readonly NavigationItem[]; current: string | null };
  /** What the search box holds (on the search page). */
  search?: string;
}

export interface PageOptions {
  /** More scripts of ours, by asset name (`videos-upload.js`), loaded deferred. */
  scripts?: string[];
}

function switcher(frame: Frame): string {
  if (frame.workspaces.length > 1) {
    return (
      `<form class="inline" method="post" action="/app/workspace"><input type="hidden" name="csrf" value="${escapeHtml(frame.csrf)}">` +
      '<label for="workspace-switch">Workspace</label><select id="workspace-switch" name="workspace_id">' +
      frame.workspaces
        .map((w) => `<option value="${escapeHtml(w.id)}"${w.current ? ' selected' : ''}>${escapeHtml(w.name)}</option>`)
        .join('') +
      '</select><button type="submit">Switch</button></form>'
    );
  }
  return frame.workspaceName ? `<span>${escapeHtml(frame.workspaceName)}</span>` : '';
}

function navigation(frame: Frame): string {
  if (frame.navigation.items.length === 0) return '';
  return (
    '<nav class="primary" aria-label="Primary">' +
    frame.navigation.items
      .map(
        (item) =>
          `<a href="${escapeHtml(item.href)}"${item.href === frame.navigation.current ? ' aria-current="page"' : ''}>${escapeHtml(item.label)}</a>`,
      )
      .join('') +
    '</nav>'
  );
}

export function dashboardPage(title: string, frame: Frame, content: string, options: PageOptions = {}): string {
  const search = frame.role
    ? '<form class="search" role="search" method="get" action="/app/search"><label class="visually-hidden" for="dashboard-search">Search</label>' +
      `<input id="dashboard-search" type="search" name="q" placeholder="Search" value="${escapeHtml(frame.search ?? '')}" aria-keyshortcuts="/">` +
      '<kbd aria-hidden="true">/</kbd></form>'
    : '';
  const scripts = ['dashboard.js', ...(options.scripts ?? [])]
    .map((name) => `<script src="${escapeHtml(assetUrl(name))}" defer></script>`)
    .join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<link rel="icon" href="data:,"><title>${escapeHtml(title)} · Cuepoint</title><link rel="stylesheet" href="${escapeHtml(assetUrl('dashboard.css'))}">${scripts}</head><body>` +
    '<a class="skip" href="#content">Skip to content</a>' +
    '<header><a class="brand" href="/app">Cuepoint</a>' +
    search +
    '<div class="who">' +
    switcher(frame) +
    (frame.role
      ? `<span>${escapeHtml(frame.personName)} · ${escapeHtml(frame.role)}</span>`
      : `<span>${escapeHtml(frame.personName)}</span>`) +
    '<a href="/app/account">Account</a>' +
    `<form class="inline" method="post" action="/sign-out"><input type="hidden" name="csrf" value="${escapeHtml(frame.csrf)}"><button type="submit">Sign out</button></form>` +
    `</div></header>${navigation(frame)}<main id="content">${content}</main></body></html>`
  );
}
