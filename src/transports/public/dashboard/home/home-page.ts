/**
 * /app: the workspace at a glance for now (issue 27 needs only a way in and the pages its actions live
 * on; the dashboard issue builds the rest): the latest videos and leads, each opening its page.
 */
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { frameOf } from '../frame/dashboard-frame.ts';
import { DASHBOARD_HEADERS, dashboardPage } from '../frame/dashboard-page.ts';
import { callOperation, dashboardSession } from '../kit/dashboard-session.ts';

interface VideoItem {
  video_id: string;
  title: string;
  status: string;
}
interface LeadItem {
  lead_id: string;
  email: string;
  name: string | null;
  status: string;
}

export function registerHomePage(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  scope.get('/app', async (request, reply) => {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect('/sign-in?next=/app', 303);
    const frame = await frameOf(deps, session);
    if (!session.principal) {
      const content =
        '<h1>No workspace yet</h1><p class="lede">You do not belong to any workspace now. Ask an owner to invite you again.</p>';
      return reply
        .code(200)
        .headers(DASHBOARD_HEADERS)
        .send(dashboardPage('Dashboard', frame, content));
    }
    const [videos, leads] = await Promise.all([
      callOperation(deps, request, session.principal, 'list_videos', { limit: 10 }),
      session.principal.scopes.has('leads:read')
        ? callOperation(deps, request, session.principal, 'list_leads', { sort: 'recent', limit: 10 })
        : undefined,
    ]);
    const videoItems = videos.status === 200 ? ((videos.body as { videos: VideoItem[] }).videos ?? []) : [];
    const leadItems = leads?.status === 200 ? ((leads.body as { leads: LeadItem[] }).leads ?? []) : [];
    const deleted = (request.query as Record<string, unknown>).deleted;
    const notice =
      deleted === 'video' ? 'The video is deleted.' : deleted === 'lead' ? 'The lead is erased; their revenue stays, with no name.' : '';
    const content =
      (notice ? `<p class="notice" role="status">${notice}</p>` : '') +
      `<h1>Welcome, ${escapeHtml(session.person.name)}</h1><p class="lede">Here is what is new in ${escapeHtml(frame.workspaceName ?? 'your workspace')}.</p>` +
      '<div class="grid">' +
      '<section aria-labelledby="videos-heading"><h2 id="videos-heading">Latest videos</h2>' +
      list(
        videoItems.map((v) => ({ href: `/app/videos/${v.video_id}`, label: v.title, meta: v.status })),
        'No videos yet. Upload one through the API (create_video_upload) or with an assistant.',
      ) +
      '</section>' +
      (leads
        ? '<section aria-labelledby="leads-heading"><h2 id="leads-heading">Latest leads</h2>' +
          list(
            leadItems.map((l) => ({ href: `/app/leads/${l.lead_id}`, label: l.name ? `${l.name} · ${l.email}` : l.email, meta: l.status })),
            'No leads yet. They arrive from your videos’ forms, bookings and the API.',
          ) +
          '</section>'
        : '') +
      '</div>';
    return reply
      .code(200)
      .headers(DASHBOARD_HEADERS)
      .send(dashboardPage('Dashboard', frame, content));
  });
}

function list(items: { href: string; label: string; meta: string }[], empty: string): string {
  if (items.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  return `<ul class="rows">${items.map((item) => `<li><a href="${escapeHtml(item.href)}">${escapeHtml(item.label)}</a><span class="meta">${escapeHtml(item.meta)}</span></li>`).join('')}</ul>`;
}
