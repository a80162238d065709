/**
 * The end of every sign-in that proved who the person is (a password and its second factor, a
 * passkey): the session the browser held, if any, ends (the id rotates at sign-in), a new one starts
 * in their first workspace, the sign-in is an audit event in each of their workspaces, and the answer
 * carries the new cookie.
 */
import type { FastifyRequest } from 'fastify';
import {
  ABSOLUTE_LIFETIME_MS,
  endSession,
  isWellFormedSecret,
  liveSession,
  membershipsOf,
  recordPersonEvent,
  startSession,
} from '../../../domains/people/index.ts';
import { requestOrigin } from '../http/request-origin.ts';
import type { SessionCookies } from '../http/session-cookie.ts';
import type { PublicSurfaceDeps } from '../surface.ts';

/** Starts the person's session; the Set-Cookie value that gives it to the browser. */
export async function startSignedInSession(
  deps: PublicSurfaceDeps,
  cookies: SessionCookies,
  request: FastifyRequest,
  signIn: { user: { id: string; name: string }; details: Record<string, string>; now: Date },
): Promise<string> {
  const { user, now } = signIn;
  const origin = requestOrigin(request, deps.addressLimits);
  const previous = cookies.read(request);
  const held = isWellFormedSecret(previous) ? await liveSession(deps.db, previous, now) : undefined;
  if (held) await endSession(deps.db, held.sessionId, now);
  const workspaces = await membershipsOf(deps.db, user.id);
  const { secret } = await startSession(deps.db, {
    userId: user.id,
    workspaceId: workspaces[0]?.workspace_id ?? null,
    address: origin.address,
    userAgent: origin.userAgent ?? null,
    now,
  });
  await recordPersonEvent(deps.db, { user, action: 'sign_in.succeeded', origin, at: now, details: signIn.details });
  return cookies.set(secret, ABSOLUTE_LIFETIME_MS / 1000);
}

/** "Try again in 15 minutes." */
export function lockedMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed sign-ins. For your safety, try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
