/**
 * Starting a person's session once they proved who they are (a password, an emailed link, a passkey):
 * the session the browser held ends (the id rotates at sign-in), a new one starts in their first
 * workspace, the sign-in is recorded in the audit log of each workspace, and the browser gets the
 * cookie and goes on to `next`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ABSOLUTE_LIFETIME_MS,
  endSession,
  isWellFormedSecret,
  liveSession,
  membershipsOf,
  recordPersonEvent,
  startSession,
} from '../../../domains/people/index.ts';
import type { SessionCookies } from '../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../surface.ts';

/** The client's address and browser, for sessions and the audit log. */
export function clientOf(request: FastifyRequest, deps: PublicSurfaceDeps): { address: string; userAgent?: string } {
  const userAgent = request.headers['user-agent'];
  return { address: deps.addressLimits.addressOf(request), ...(typeof userAgent === 'string' ? { userAgent } : {}) };
}

export type SignInMethod = 'password' | 'email_link' | 'passkey';

/** Starts the person's session and records the sign-in (`details` beside its method); the Set-Cookie value that carries it. */
export async function startPersonSession(
  request: FastifyRequest,
  context: { deps: PublicSurfaceDeps; cookies: SessionCookies },
  person: { user: { id: string; name: string }; method: SignInMethod; details?: Record<string, string> },
): Promise<string> {
  const { deps, cookies } = context;
  const now = deps.clock();
  const client = clientOf(request, deps);
  const previous = cookies.read(request);
  const held = isWellFormedSecret(previous) ? await liveSession(deps.db, previous, now) : undefined;
  if (held) await endSession(deps.db, held.sessionId, now);
  const workspaces = await membershipsOf(deps.db, person.user.id);
  const { secret } = await startSession(deps.db, {
    userId: person.user.id,
    workspaceId: workspaces[0]?.workspace_id ?? null,
    address: client.address,
    userAgent: client.userAgent ?? null,
    now,
  });
  await recordPersonEvent(deps.db, {
    user: person.user,
    action: 'sign_in.succeeded',
    origin: client,
    at: now,
    details: { method: person.method, ...person.details },
    workspaceIds: workspaces.map((membership) => membership.workspace_id),
  });
  return cookies.set(secret, ABSOLUTE_LIFETIME_MS / 1000);
}

export async function beginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  context: { deps: PublicSurfaceDeps; cookies: SessionCookies },
  person: { user: { id: string; name: string }; method: SignInMethod; details?: Record<string, string>; next: string },
): Promise<FastifyReply> {
  const cookie = await startPersonSession(request, context, person);
  return reply.header('Set-Cookie', cookie).redirect(person.next, 303);
}

/** What a locked account or address is told: "… try again in 15 minutes." */
export function lockedMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed sign-ins. For your safety, try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
