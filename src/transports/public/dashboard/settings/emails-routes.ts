/**
 * The Email tab: GET /app/settings/email, the workspace's outbox (list_emails) for owners and admins,
 * filtered by status and paged by cursor. With no mail server configured, this is where an owner finds
 * an invitation's link to hand over (DESIGN §10).
 */
import type { FastifyInstance } from 'fastify';
import { cursorPages } from '../kit/cursor-pages.ts';
import { type DashboardEnv, dashboardGet } from '../kit/page-route.ts';
import { workspaceZone } from '../kit/workspace-zone.ts';
import { EMAIL_STATUS_FILTERS, type EmailRow, emailList, emailStatusNav } from './emails-view.ts';
import { settingsPage } from './settings-frame.ts';

const PAGE = '/app/settings/email';

interface EmailPage {
  emails: EmailRow[];
  pagination: { total: number; next_cursor: string | null };
}

export function registerEmailSettings(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, PAGE, async (ctx) => {
    const requested = ctx.query.status ?? '';
    // An unknown status is shown as every message rather than refused: the tabs offer only known ones.
    const status = EMAIL_STATUS_FILTERS.some((filter) => filter.value === requested) ? requested : '';
    const [list, timeZone] = await Promise.all([
      ctx.call<EmailPage>('list_emails', {
        limit: 50,
        ...(status && { status }),
        ...(ctx.query.cursor && { cursor: ctx.query.cursor }),
      }),
      workspaceZone(ctx),
    ]);
    if (!list.ok) return ctx.refused(list);
    const pages = cursorPages({
      path: PAGE,
      keep: status ? { status } : {},
      paged: Boolean(ctx.query.cursor),
      next: list.body.pagination.next_cursor,
      label: 'Email pages',
      older: 'Older messages',
    });
    const content =
      '<section aria-labelledby="email-heading" class="card"><h2 id="email-heading">Email</h2>' +
      '<p class="hint">What Cuepoint sent, or will send, for this workspace. Until a mail server is set (<code>CUEPOINT_SMTP_URL</code>), messages wait here as Queued and nothing is lost: copy an invitation’s link and hand it over.</p>' +
      emailStatusNav(status) +
      emailList(list.body.emails, timeZone, list.body.pagination.total, status) +
      pages +
      '</section>';
    return settingsPage(ctx, 'email', 'Email', content, { scripts: ['settings-copy.js'] });
  });
}
