/**
 * Signing in with a passkey from /sign-in (issue 27): POST /sign-in/passkey/options gives the browser
 * a challenge (kept server-side), POST /sign-in/passkey checks what the authenticator signed and starts
 * a session exactly as a password sign-in does. JSON both ways, for /passkey-sign-in.js; errors in the
 * API's error body. Both are refused from another origin and draw from the address's sign-in limit;
 * a failed assertion counts toward the lockout and, when it named someone's passkey, is an audit event.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.ts';
import { checkPasskey, passkeySignInOptions, recordPersonEvent, relyingPartyFor } from '../../../domains/people/index.ts';
import { serveWebauthnScript } from '../assets/webauthn-script.ts';
import { bodyTooLargeHandler, sendFailure } from '../http/error-reply.ts';
import { servePageScript } from '../http/page-serving.ts';
import { isFromOwnOrigin } from '../http/same-origin.ts';
import type { SessionCookies } from '../http/session-cookie.ts';
import { limitedWrite } from '../http/write-limits.ts';
import type { PublicSurfaceDeps } from '../surface.ts';
import { safeNextPath } from './next-path.ts';
import { clientOf, lockedMessage, startPersonSession } from './session-start.ts';

/** An assertion is a few hundred bytes; a passkey provider's extensions a few more. */
export const PASSKEY_BODY_LIMIT = 32 * 1024;

const NOT_OURS = new AppError('forbidden', 'This request came from another site, so it was refused. Open the sign-in page and try again.');

export function registerPasskeySignInRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const relyingParty = relyingPartyFor(deps.publicUrl);
  serveWebauthnScript(scope);
  servePageScript(scope, '/passkey-sign-in.js', 'passkey-sign-in.js');

  // A scope of their own, so a body over the limit is a 413 naming this limit.
  scope.register(async (json) => {
    json.setErrorHandler(bodyTooLargeHandler('A passkey sign-in', PASSKEY_BODY_LIMIT));

    json.post('/sign-in/passkey/options', { bodyLimit: PASSKEY_BODY_LIMIT }, async (request, reply) => {
      if (!isFromOwnOrigin(request, deps.publicUrl)) return sendFailure(request, reply, NOT_OURS, 'no passkey options');
      try {
        return await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'sign_ins')], async () => {
          const options = await passkeySignInOptions(deps.db, { relyingParty, now: deps.clock() });
          return reply.code(200).header('Cache-Control', 'no-store').send({ options });
        });
      } catch (error) {
        return sendFailure(request, reply, error, 'no passkey options');
      }
    });

    json.post('/sign-in/passkey', { bodyLimit: PASSKEY_BODY_LIMIT }, async (request, reply) => {
      if (!isFromOwnOrigin(request, deps.publicUrl)) return sendFailure(request, reply, NOT_OURS, 'no passkey sign-in');
      try {
        return await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'sign_ins')], () => signIn(request, reply));
      } catch (error) {
        return sendFailure(request, reply, error, 'no passkey sign-in');
      }
    });
  });

  async function signIn(request: FastifyRequest, reply: FastifyReply) {
    const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
    const next = safeNextPath(body.next);
    const now = deps.clock();
    const origin = clientOf(request, deps);
    const outcome = await checkPasskey(deps.db, deps.secret, { response: body.response, relyingParty, address: origin.address, now });
    if (outcome.kind === 'locked') {
      throw new AppError(
        'rate_limited',
        lockedMessage(outcome.retryAfterSeconds),
        { retry_after_seconds: outcome.retryAfterSeconds },
        { 'Retry-After': String(outcome.retryAfterSeconds) },
      );
    }
    if (outcome.kind === 'refused') {
      if (outcome.user)
        await recordPersonEvent(deps.db, { user: outcome.user, action: 'sign_in.failed', origin, at: now, details: { method: 'passkey' } });
      throw new AppError('unauthorized', 'That passkey could not sign you in. Try again, or sign in with your email and password.');
    }
    const cookie = await startPersonSession(
      request,
      { deps, cookies },
      { user: outcome.user, method: 'passkey', details: { passkey_id: outcome.passkey.id } },
    );
    return reply
      .code(200)
      .header('Set-Cookie', cookie)
      .header('Cache-Control', 'no-store')
      .send({ redirect_to: next ?? '/app' });
  }
}
