/**
 * /app/videos/{video_id}: a video as get_video gives it, and for owners and admins the "Delete video"
 * control (delete_video, a dashboard-only operation). The dashboard issue builds this page out (the
 * player, retention, transcript); this is what the people issue needs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationOutcome } from '../../../../core/pipeline/pipeline.ts';
import { isManager } from '../../../../core/roles.ts';
import { csrfTokenMatches } from '../../../../domains/people/index.ts';
import { FORM_BODY_LIMIT, formField } from '../../http/form-body.ts';
import { escapeHtml } from '../../http/page-parts.ts';
import { isFromOwnOrigin } from '../../http/same-origin.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { frameOf } from '../frame/dashboard-frame.ts';
import { DASHBOARD_HEADERS, dashboardPage } from '../frame/dashboard-page.ts';
import { confirmControl } from '../kit/confirm-dialog.ts';
import { callOperation, type DashboardSession, dashboardSession } from '../kit/dashboard-session.ts';
import { refusedForm } from '../kit/refused-form.ts';

type Params = { video_id: string };

interface VideoView {
  video_id: string;
  title: string;
  description: string | null;
  status: string;
  duration_seconds: number | null;
  created_at: string;
  watch_url: string;
  stats?: { views?: number };
}

export function registerVideoPage(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const notFound = async (reply: FastifyReply, session: DashboardSession) =>
    reply
      .code(404)
      .headers(DASHBOARD_HEADERS)
      .send(
        dashboardPage(
          'Not found',
          await frameOf(deps, session, '/app/videos'),
          '<h1>No such video</h1><p class="lede">It may have been deleted. <a href="/app">Back to the dashboard</a></p>',
        ),
      );

  scope.get('/app/videos/:video_id', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect(`/sign-in?next=/app/videos/${encodeURIComponent(request.params.video_id)}`, 303);
    if (!session.principal) return reply.redirect('/app', 303);
    const answer = await callOperation(deps, request, session.principal, 'get_video', { video_id: request.params.video_id });
    if (answer.status !== 200) return notFound(reply, session);
    const video = answer.body as VideoView;
    const wantsConfirm = (request.query as Record<string, unknown>).confirm === '1';
    const facts = [
      ['Status', video.status],
      ['Length', video.duration_seconds === null ? '—' : `${Math.round(video.duration_seconds)} s`],
      ['Views', String(video.stats?.views ?? 0)],
      ['Added', video.created_at.slice(0, 10)],
    ];
    const content =
      `<p><a href="/app">← Dashboard</a></p><h1>${escapeHtml(video.title)}</h1>` +
      (video.description ? `<p class="lede">${escapeHtml(video.description)}</p>` : '<p class="lede"></p>') +
      `<dl>${facts.map(([term, value]) => `<dt>${escapeHtml(term as string)}</dt><dd>${escapeHtml(value as string)}</dd>`).join('')}` +
      `<dt>Watch page</dt><dd><a href="${escapeHtml(video.watch_url)}">${escapeHtml(video.watch_url)}</a></dd></dl>` +
      (isManager(session.principal.role)
        ? confirmControl({
            label: 'Delete video',
            page: `/app/videos/${video.video_id}`,
            action: `/app/videos/${video.video_id}/delete`,
            heading: `Delete “${video.title}”?`,
            consequence:
              'The video, its files, captions, transcript and statistics are removed for good, and it leaves every route and the channel. This cannot be undone; archiving is the reversible way.',
            csrf: session.csrf,
            open: wantsConfirm,
          })
        : '');
    return reply
      .code(200)
      .headers(DASHBOARD_HEADERS)
      .send(dashboardPage(video.title, await frameOf(deps, session, '/app/videos'), content));
  });

  scope.post('/app/videos/:video_id/delete', { bodyLimit: FORM_BODY_LIMIT }, async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect('/sign-in?next=/app', 303);
    if (!session.principal) return reply.redirect('/app', 303);
    if (
      !isFromOwnOrigin(request, deps.publicUrl) ||
      !csrfTokenMatches(deps.secret, session.person.sessionId, formField(request.body, 'csrf'))
    ) {
      return refusedForm(reply);
    }
    const answer = await callOperation(deps, request, session.principal, 'delete_video', { video_id: request.params.video_id });
    if (answer.status === 404) return notFound(reply, session);
    if (answer.status !== 200) return operationRefused(reply, session, deps, answer);
    return reply.redirect('/app?deleted=video', 303);
  });
}

/** The page for an operation that said no (a role without the right, a conflict): its own words. */
export async function operationRefused(
  reply: FastifyReply,
  session: DashboardSession,
  deps: PublicSurfaceDeps,
  answer: OperationOutcome,
): Promise<FastifyReply> {
  const message = (answer.body as { error?: { message?: string } })?.error?.message ?? 'That did not work.';
  return reply
    .code(answer.status)
    .headers(answer.headers)
    .headers(DASHBOARD_HEADERS)
    .send(
      dashboardPage(
        'Not done',
        await frameOf(deps, session, '/app/videos'),
        `<h1>Not done</h1><p class="alert" role="alert">${escapeHtml(message)}</p><p><a href="/app">Back to the dashboard</a></p>`,
      ),
    );
}
