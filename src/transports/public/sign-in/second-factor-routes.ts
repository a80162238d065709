/**
 * POST /sign-in/second-factor: the code that finishes a password sign-in when the person has
 * two-factor on (issue 27). The right password leads here (askForSecondFactor) instead of to a session;
 * the form carries a five-minute one-time token saying so. A wrong code counts toward the lockout of
 * the account and the address, and is an audit event like a wrong password; a code is accepted once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.ts';
import { checkSecondFactor, isWellFormedSecret, recordPersonEvent, startSecondFactor } from '../../../domains/people/index.ts';
import { ACCOUNT_HEADERS, messagePage } from '../http/account-page.ts';
import { formField } from '../http/form-body.ts';
import { isFromOwnOrigin } from '../http/same-origin.ts';
import type { SessionCookies } from '../http/session-cookie.ts';
import { limitedWrite } from '../http/write-limits.ts';
import type { PublicSurfaceDeps } from '../surface.ts';
import { FORM_WITH_NEXT_LIMIT, safeNextPath } from './next-path.ts';
import { secondFactorPage } from './second-factor-page.ts';
import { beginSession, clientOf, lockedMessage } from './session-start.ts';
import { signInPage } from './sign-in-page.ts';

const DETAILS = { method: 'password', second_factor: 'totp' } as const;

/** After the right password of a person with two-factor on: the code form, not a session. */
export async function askForSecondFactor(
  deps: PublicSurfaceDeps,
  reply: FastifyReply,
  signIn: { userId: string; next: string | undefined; now: Date },
): Promise<FastifyReply> {
  const pending = await startSecondFactor(deps.db, signIn.userId, signIn.now);
  return reply
    .code(200)
    .headers(ACCOUNT_HEADERS)
    .send(secondFactorPage({ pending, next: signIn.next }));
}

export function registerSecondFactorRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const page = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(ACCOUNT_HEADERS).send(html);

  scope.post('/sign-in/second-factor', { bodyLimit: FORM_WITH_NEXT_LIMIT }, async (request, reply) => {
    if (!isFromOwnOrigin(request, deps.publicUrl))
      return page(
        reply,
        403,
        messagePage(
          'Not sent from Cuepoint',
          'This sign-in form came from another site, so it was refused. Open the sign-in page and try again.',
          {
            href: '/sign-in',
            label: 'Go to sign-in',
          },
        ),
      );
    const pending = formField(request.body, 'pending');
    const code = formField(request.body, 'code').trim();
    const next = safeNextPath(formField(request.body, 'next'));
    if (!isWellFormedSecret(pending)) return page(reply, 400, signInPage({ next, error: 'Your sign-in took too long. Sign in again.' }));
    if (!code) return page(reply, 400, secondFactorPage({ pending, next, error: 'Enter the 6-digit code from your authenticator app.' }));
    try {
      return await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'sign_ins')], () =>
        verify(request, reply, { pending, code, next }),
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
      const seconds = (error.details as { retry_after_seconds: number }).retry_after_seconds;
      return reply
        .headers(error.headers)
        .code(429)
        .headers(ACCOUNT_HEADERS)
        .send(
          secondFactorPage({
            pending,
            next,
            error: `Too many sign-in attempts were sent from your network. Please try again in ${seconds} seconds.`,
          }),
        );
    }
  });

  async function verify(request: FastifyRequest, reply: FastifyReply, form: { pending: string; code: string; next: string | undefined }) {
    const now = deps.clock();
    const origin = clientOf(request, deps);
    const outcome = await checkSecondFactor(deps.db, deps.secret, { pending: form.pending, code: form.code, address: origin.address, now });
    switch (outcome.kind) {
      case 'expired':
        return page(reply, 400, signInPage({ next: form.next, error: 'Your sign-in took too long. Sign in again.' }));
      case 'locked':
        return reply
          .code(429)
          .headers(ACCOUNT_HEADERS)
          .header('Retry-After', String(outcome.retryAfterSeconds))
          .send(secondFactorPage({ pending: form.pending, next: form.next, error: lockedMessage(outcome.retryAfterSeconds) }));
      case 'refused':
        await recordPersonEvent(deps.db, { user: outcome.user, action: 'sign_in.failed', origin, at: now, details: DETAILS });
        return page(
          reply,
          401,
          secondFactorPage({
            pending: form.pending,
            next: form.next,
            error: 'That code is not right, or was used already. Enter the code your app shows now.',
          }),
        );
      case 'accepted':
        return beginSession(
          request,
          reply,
          { deps, cookies },
          { user: outcome.user, method: DETAILS.method, details: { second_factor: DETAILS.second_factor }, next: form.next ?? '/app' },
        );
    }
  }
}
