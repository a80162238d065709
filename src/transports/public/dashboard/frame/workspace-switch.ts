/** POST /app/workspace: moves the session to another workspace the person belongs to. */
import type { FastifyInstance } from 'fastify';
import { csrfTokenMatches, switchWorkspace } from '../../../../domains/people/index.ts';
import { FORM_BODY_LIMIT, formField } from '../../http/form-body.ts';
import { isFromOwnOrigin } from '../../http/same-origin.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { dashboardSession } from '../kit/dashboard-session.ts';
import { refusedForm } from '../kit/refused-form.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerWorkspaceSwitch(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  scope.post('/app/workspace', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect('/sign-in?next=/app', 303);
    if (
      !isFromOwnOrigin(request, deps.publicUrl) ||
      !csrfTokenMatches(deps.secret, session.person.sessionId, formField(request.body, 'csrf'))
    ) {
      return refusedForm(reply);
    }
    const workspaceId = formField(request.body, 'workspace_id');
    if (UUID.test(workspaceId))
      await switchWorkspace(deps.db, { id: session.person.sessionId, userId: session.person.userId }, workspaceId);
    return reply.redirect('/app', 303);
  });
}
