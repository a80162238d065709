/**
 * Who is looking at a dashboard page: the live session the cookie names, and that person as the
 * pipeline's principal in the workspace they are working in. Every read and write of a page is a
 * catalog operation called with that principal (callOperation), so a page shows exactly what the API
 * would, scopes and masking included.
 */
import type { FastifyRequest } from 'fastify';
import type { OperationOutcome } from '../../../../core/pipeline/pipeline.ts';
import type { Principal } from '../../../../core/pipeline/principal.ts';
import { csrfTokenFor, isWellFormedSecret, liveSession, personPrincipal, type SignedIn } from '../../../../domains/people/index.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';

export interface DashboardSession {
  person: SignedIn;
  /** Null when the person belongs to no workspace (removed from their last one). */
  principal: Principal | null;
  /** The token every form of this session carries. */
  csrf: string;
}

export async function dashboardSession(
  request: FastifyRequest,
  deps: PublicSurfaceDeps,
  cookies: SessionCookies,
): Promise<DashboardSession | undefined> {
  const secret = cookies.read(request);
  if (!isWellFormedSecret(secret)) return undefined;
  const person = await liveSession(deps.db, secret, deps.clock());
  if (!person) return undefined;
  return { person, principal: personPrincipal(person) ?? null, csrf: csrfTokenFor(deps.secret, person.sessionId) };
}

/** Calls a catalog operation as the signed-in person, through the one pipeline. */
export function callOperation(
  deps: PublicSurfaceDeps,
  request: FastifyRequest,
  principal: Principal,
  name: string,
  input: Record<string, unknown>,
): Promise<OperationOutcome> {
  const operation = deps.operations.get(name);
  if (!operation) throw new Error(`The dashboard calls ${name}, which the catalog does not have`);
  return deps.pipeline(operation, {
    authorization: undefined,
    principal,
    input,
    source: 'json',
    requestId: request.id,
    origin: {
      transport: 'dashboard',
      address: deps.addressLimits.addressOf(request),
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
    },
  });
}
