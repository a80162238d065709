/**
 * The check every state-changing request of the account's pages passes first: a live session, sent
 * from our own origin (same-origin.ts), with the session's CSRF token (a form's `csrf` field, or the
 * X-CSRF-Token header of the pages' JSON requests).
 */
import type { FastifyRequest } from 'fastify';
import { csrfTokenMatches } from '../../../../domains/people/index.ts';
import { isFromOwnOrigin } from '../../http/same-origin.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { type DashboardSession, dashboardSession } from './dashboard-session.ts';

export type SignedInWrite = { kind: 'allowed'; session: DashboardSession } | { kind: 'signed_out' } | { kind: 'refused' };

export async function checkSignedInWrite(
  request: FastifyRequest,
  deps: PublicSurfaceDeps,
  cookies: SessionCookies,
  csrf: 'form' | 'header',
): Promise<SignedInWrite> {
  const session = await dashboardSession(request, deps, cookies);
  if (!session) return { kind: 'signed_out' };
  const sent = csrf === 'header' ? request.headers['x-csrf-token'] : (request.body as Record<string, unknown> | undefined)?.csrf;
  if (!isFromOwnOrigin(request, deps.publicUrl) || !csrfTokenMatches(deps.secret, session.person.sessionId, sent))
    return { kind: 'refused' };
  return { kind: 'allowed', session };
}
