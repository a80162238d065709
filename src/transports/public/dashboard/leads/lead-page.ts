/**
 * /app/leads/{lead_id}: a lead as get_lead gives it (masked while the workspace masks), and for owners
 * and admins "Reveal" (reveal_lead, recorded in the audit log) and "Delete lead" (erase_lead: the
 * person is erased, their revenue stays in the ledger with no name). The dashboard issue builds the
 * rest (journey, notes, bookings).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../../../core/pipeline/principal.ts';
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
import { operationRefused } from '../videos/video-page.ts';

type Params = { lead_id: string };

/** A session working in a workspace: its principal is there. */
type WorkingSession = DashboardSession & { principal: Principal };
const hasPrincipal = (session: DashboardSession): session is WorkingSession => session.principal !== null;

interface LeadView {
  lead_id: string;
  email: string;
  name: string | null;
  phone: string | null;
  status: string;
  created_at: string;
  last_activity_at: string;
}

interface Revealed {
  email: string;
  name: string | null;
  phone: string | null;
}

export function registerLeadPage(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const notFound = async (reply: FastifyReply, session: DashboardSession) =>
    reply
      .code(404)
      .headers(DASHBOARD_HEADERS)
      .send(
        dashboardPage(
          'Not found',
          await frameOf(deps, session, '/app/leads'),
          '<h1>No such lead</h1><p class="lede">It may have been deleted. <a href="/app">Back to the dashboard</a></p>',
        ),
      );

  /** The page, with the lead's contact fields revealed when `revealed` is given. */
  async function render(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, session: DashboardSession, revealed?: Revealed) {
    const principal = session.principal;
    if (!principal) return reply.redirect('/app', 303);
    const answer = await callOperation(deps, request, principal, 'get_lead', { lead_id: request.params.lead_id });
    if (answer.status !== 200) return notFound(reply, session);
    const lead = answer.body as LeadView;
    const shown = revealed ?? lead;
    const manager = isManager(principal.role);
    const masked = principal.maskPii && !revealed;
    const title = shown.name ?? shown.email;
    const content =
      `<p><a href="/app">← Dashboard</a></p><h1>${escapeHtml(title)}</h1>` +
      `<p class="lede">${masked ? 'Personal data is masked in this workspace.' : revealed ? 'Shown unmasked for you; this reveal is in the audit log.' : ''}</p>` +
      `<dl><dt>Email</dt><dd>${escapeHtml(shown.email)}</dd><dt>Name</dt><dd>${escapeHtml(shown.name ?? '—')}</dd>` +
      `<dt>Phone</dt><dd>${escapeHtml(shown.phone ?? '—')}</dd><dt>Status</dt><dd>${escapeHtml(lead.status)}</dd>` +
      `<dt>Captured</dt><dd>${escapeHtml(lead.created_at.slice(0, 10))}</dd><dt>Last activity</dt><dd>${escapeHtml(lead.last_activity_at.slice(0, 10))}</dd></dl>` +
      (manager && masked
        ? `<form method="post" action="/app/leads/${escapeHtml(lead.lead_id)}/reveal"><input type="hidden" name="csrf" value="${escapeHtml(session.csrf)}"><button type="submit">Reveal</button></form><p></p>`
        : '') +
      (manager
        ? confirmControl({
            label: 'Delete lead',
            page: `/app/leads/${lead.lead_id}`,
            action: `/app/leads/${lead.lead_id}/delete`,
            heading: 'Delete this lead?',
            consequence:
              'Everything that names this person is erased: their details, notes, journey, form submissions and booking details. Their purchases stay in revenue with no name. This cannot be undone.',
            csrf: session.csrf,
            open: (request.query as Record<string, unknown>).confirm === '1',
          })
        : '');
    return reply
      .code(200)
      .headers(DASHBOARD_HEADERS)
      .send(dashboardPage(title, await frameOf(deps, session, '/app/leads'), content));
  }

  /** The session of a form post from our own page, or the answer that refuses it. */
  async function formSession(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<WorkingSession | FastifyReply> {
    const session = await dashboardSession(request, deps, cookies);
    if (!session || !hasPrincipal(session)) return reply.redirect('/sign-in?next=/app', 303);
    if (
      !isFromOwnOrigin(request, deps.publicUrl) ||
      !csrfTokenMatches(deps.secret, session.person.sessionId, formField(request.body, 'csrf'))
    ) {
      return refusedForm(reply);
    }
    return session;
  }

  scope.get('/app/leads/:lead_id', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect(`/sign-in?next=/app/leads/${encodeURIComponent(request.params.lead_id)}`, 303);
    return render(request, reply, session);
  });

  scope.post('/app/leads/:lead_id/reveal', { bodyLimit: FORM_BODY_LIMIT }, async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const session = await formSession(request, reply);
    if (!('person' in session)) return session;
    const answer = await callOperation(deps, request, session.principal, 'reveal_lead', { lead_id: request.params.lead_id });
    if (answer.status === 404) return notFound(reply, session);
    if (answer.status !== 200) return operationRefused(reply, session, deps, answer);
    return render(request, reply, session, answer.body as Revealed);
  });

  scope.post('/app/leads/:lead_id/delete', { bodyLimit: FORM_BODY_LIMIT }, async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const session = await formSession(request, reply);
    if (!('person' in session)) return session;
    const answer = await callOperation(deps, request, session.principal, 'erase_lead', { lead_id: request.params.lead_id });
    if (answer.status === 404) return notFound(reply, session);
    if (answer.status !== 200) return operationRefused(reply, session, deps, answer);
    return reply.redirect('/app?deleted=lead', 303);
  });
}
