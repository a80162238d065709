/**
 * GET and POST /sign-in, POST /sign-out (DESIGN §10). Signing in starts a new session (the one the
 * browser held, if any, ends: the id rotates at sign-in) and sets its cookie; signing out ends the
 * session on the server, so a copied cookie stops working too. Refusals never say whether an email has
 * an account; locked out, the right password is refused too, with the wait.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.ts';
import {
  checkPassword,
  csrfTokenMatches,
  endSession,
  isWellFormedSecret,
  liveSession,
  recordPersonEvent,
} from '../../../domains/people/index.ts';
import { ACCOUNT_HEADERS, messagePage } from '../http/account-page.ts';
import { FORM_BODY_LIMIT, formField } from '../http/form-body.ts';
import { isFromOwnOrigin } from '../http/same-origin.ts';
import type { SessionCookies } from '../http/session-cookie.ts';
import { limitedWrite } from '../http/write-limits.ts';
import type { PublicSurfaceDeps } from '../surface.ts';
import { FORM_WITH_NEXT_LIMIT, safeNextPath } from './next-path.ts';
import { askForSecondFactor } from './second-factor-routes.ts';
import { beginSession, clientOf, lockedMessage } from './session-start.ts';
import { signInPage } from './sign-in-page.ts';

const MAX_EMAIL = 254;
const MAX_PASSWORD = 256;

export function registerSignInRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const page = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(ACCOUNT_HEADERS).send(html);

  scope.get('/sign-in', async (request, reply) => {
    const next = safeNextPath((request.query as Record<string, unknown>).next);
    const secret = cookies.read(request);
    // Already signed in: straight on.
    if (isWellFormedSecret(secret) && (await liveSession(deps.db, secret, deps.clock()))) return reply.redirect(next ?? '/app', 303);
    const signedOut = (request.query as Record<string, unknown>).signed_out === '1';
    return page(reply, 200, signInPage({ next, notice: signedOut ? 'You are signed out.' : undefined }));
  });

  scope.post('/sign-in', { bodyLimit: FORM_WITH_NEXT_LIMIT }, async (request, reply) => {
    if (!isFromOwnOrigin(request, deps.publicUrl))
      return page(
        reply,
        403,
        messagePage(
          'Not sent from Cuepoint',
          'This sign-in form came from another site, so it was refused. Open the sign-in page and try again.',
          { href: '/sign-in', label: 'Go to sign-in' },
        ),
      );
    const email = formField(request.body, 'email').trim();
    const password = formField(request.body, 'password');
    const next = safeNextPath(formField(request.body, 'next'));
    if (!email || !password || email.length > MAX_EMAIL || password.length > MAX_PASSWORD) {
      const error = !email ? 'Enter your email address.' : !password ? 'Enter your password.' : 'The email or password is too long.';
      return page(reply, 400, signInPage({ email: email.slice(0, MAX_EMAIL), next, error }));
    }
    try {
      return await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'sign_ins')], () =>
        signIn(request, reply, { email, password, next }),
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
      const seconds = (error.details as { retry_after_seconds: number }).retry_after_seconds;
      return reply
        .headers(error.headers)
        .code(429)
        .headers(ACCOUNT_HEADERS)
        .send(
          signInPage({
            email,
            next,
            error: `Too many sign-in attempts were sent from your network. Please try again in ${seconds} seconds.`,
          }),
        );
    }
  });

  async function signIn(request: FastifyRequest, reply: FastifyReply, form: { email: string; password: string; next: string | undefined }) {
    const now = deps.clock();
    const origin = clientOf(request, deps);
    const outcome = await checkPassword(deps.db, deps.secret, { email: form.email, password: form.password, address: origin.address, now });
    if (outcome.kind === 'locked') {
      return reply
        .code(429)
        .headers(ACCOUNT_HEADERS)
        .header('Retry-After', String(outcome.retryAfterSeconds))
        .send(
          signInPage({
            email: form.email,
            next: form.next,
            error: lockedMessage(outcome.retryAfterSeconds),
          }),
        );
    }
    if (outcome.kind === 'refused') {
      if (outcome.user)
        await recordPersonEvent(deps.db, {
          user: outcome.user,
          action: 'sign_in.failed',
          origin,
          at: now,
          details: { method: 'password' },
        });
      return page(
        reply,
        401,
        signInPage({ email: form.email, next: form.next, error: 'That email and password do not match. Check both and try again.' }),
      );
    }
    // Two-factor on: the right password leads to the code, not yet to a session.
    if (outcome.user.totp_enabled_at) return askForSecondFactor(deps, reply, { userId: outcome.user.id, next: form.next, now });
    return beginSession(request, reply, { deps, cookies }, { user: outcome.user, method: 'password', next: form.next ?? '/app' });
  }

  scope.post('/sign-out', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const secret = cookies.read(request);
    const now = deps.clock();
    const session = isWellFormedSecret(secret) ? await liveSession(deps.db, secret, now) : undefined;
    if (session) {
      // A page of another site must not be able to sign a person out either.
      if (!isFromOwnOrigin(request, deps.publicUrl) || !csrfTokenMatches(deps.secret, session.sessionId, formField(request.body, 'csrf'))) {
        return page(
          reply,
          403,
          messagePage('Not signed out', 'This request did not come from a Cuepoint page, so nothing changed. Use the Sign out button.', {
            href: '/app',
            label: 'Back to the dashboard',
          }),
        );
      }
      await endSession(deps.db, session.sessionId, now);
      await recordPersonEvent(deps.db, {
        user: { id: session.userId, name: session.name },
        action: 'sign_out',
        origin: clientOf(request, deps),
        at: now,
      });
    }
    return reply.header('Set-Cookie', cookies.clear()).redirect('/sign-in?signed_out=1', 303);
  });
}
