/**
 * The frame every settings page shares: the heading, the sub-navigation (tabs, the current one marked
 * with aria-current) and the notice a write left (`?done=…`). Tabs a role cannot read are not offered:
 * everything but Workspace needs workspace:manage, which only owners and admins hold.
 */
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import type { PageContext } from '../kit/page-route.ts';

export type SettingsTab = 'workspace' | 'members' | 'api-keys' | 'assistants' | 'webhooks' | 'email' | 'audit';

const TABS: readonly { tab: SettingsTab; label: string; href: string; managersOnly: boolean }[] = [
  { tab: 'workspace', label: 'Workspace', href: '/app/settings', managersOnly: false },
  { tab: 'members', label: 'Members', href: '/app/settings/members', managersOnly: true },
  { tab: 'api-keys', label: 'API keys', href: '/app/settings/api-keys', managersOnly: true },
  { tab: 'assistants', label: 'Connected assistants', href: '/app/settings/assistants', managersOnly: true },
  { tab: 'webhooks', label: 'Webhooks', href: '/app/settings/webhooks', managersOnly: true },
  { tab: 'email', label: 'Email', href: '/app/settings/email', managersOnly: true },
  { tab: 'audit', label: 'Audit log', href: '/app/settings/audit', managersOnly: true },
];

export function settingsTabs(ctx: PageContext, current: SettingsTab): string {
  const offered = TABS.filter((tab) => !tab.managersOnly || ctx.may('workspace:manage'));
  return (
    '<nav class="tabs" aria-label="Settings">' +
    offered
      .map((tab) => `<a href="${tab.href}"${tab.tab === current ? ' aria-current="page"' : ''}>${escapeHtml(tab.label)}</a>`)
      .join('') +
    '</nav>'
  );
}

/** The notice of `?done=…`, when the page knows the word. */
export function doneNotice(ctx: PageContext, notices: Record<string, string>): string {
  const done = ctx.query.done;
  const text = done ? notices[done] : undefined;
  return text ? `<p class="notice" role="status">${escapeHtml(text)}</p>` : '';
}

export interface SettingsPageOptions {
  status?: number;
  scripts?: string[];
  /** A problem the whole page should show (an operation's refusal in its own words). */
  alert?: string;
  notice?: string;
  /** Secrets shown once must not be kept by the browser or a proxy. */
  noStore?: boolean;
}

/** A settings page in the dashboard's frame: "Settings", the tabs, then the tab's content. */
export function settingsPage(
  ctx: PageContext,
  current: SettingsTab,
  title: string,
  content: string,
  options: SettingsPageOptions = {},
): Promise<FastifyReply> {
  if (options.noStore) ctx.reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer');
  const label = TABS.find((tab) => tab.tab === current)?.label ?? 'Settings';
  return ctx.page(
    `${title} · Settings`,
    '<h1>Settings</h1>' +
      settingsTabs(ctx, current) +
      (options.notice ?? '') +
      (options.alert ? `<p class="alert" role="alert">${escapeHtml(options.alert)}</p>` : '') +
      `<div class="settings-panel" aria-label="${escapeHtml(label)}">${content}</div>`,
    { status: options.status, scripts: options.scripts },
  );
}
