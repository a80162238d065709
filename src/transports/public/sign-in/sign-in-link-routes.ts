/**
 * Emailed sign-in links (issue 27): GET and POST /sign-in/link ask for one; GET and POST
 * /sign-in/link/{secret} use it (the GET only asks to confirm: mail scanners open links); GET and POST
 * /account/email/{secret} confirm an email change. Asking answers the same page whether or not the
 * address has an account, and answers before the mail is queued, so its timing says nothing either.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.ts';
import { isDeliverableAddress } from '../../../domains/email/index.ts';
import {
  confirmEmailChange,
  isWellFormedSecret,
  pendingEmailChange,
  recordPersonEvent,
  requestSignInLink,
  signInLinkAccount,
  useSignInLink,
} from '../../../domains/people/index.ts';
import { ACCOUNT_HEADERS, messagePage } from '../http/account-page.ts';
import { FORM_BODY_LIMIT, formField } from '../http/form-body.ts';
import { isFromOwnOrigin } from '../http/same-origin.ts';
import type { SessionCookies } from '../http/session-cookie.ts';
import { limitedWrite } from '../http/write-limits.ts';
import type { PublicSurfaceDeps } from '../surface.ts';
import { beginSession, clientOf } from './session-start.ts';
import { askForLinkPage, confirmEmailChangePage, confirmLinkPage, linkSentPage } from './sign-in-link-page.ts';

type Params = { secret: string };

const LINK_NOT_VALID = messagePage('This link is not valid', 'It has expired or was already used. Ask for a new one.', {
  href: '/sign-in/link',
  label: 'Email me a new sign-in link',
});
const NOT_FROM_US = messagePage(
  'Not sent from Cuepoint',
  'This form came from another site, so it was refused. Open the page again and retry.',
);

export function registerSignInLinkRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const page = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(ACCOUNT_HEADERS).send(html);
  const tooMany = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
    const seconds = (error.details as { retry_after_seconds: number }).retry_after_seconds;
    return reply
      .headers(error.headers)
      .code(429)
      .headers(ACCOUNT_HEADERS)
      .send(
        messagePage('Too many tries', `Too many account requests were sent from your network. Please try again in ${seconds} seconds.`),
      );
  };

  scope.get('/sign-in/link', async (_request, reply) => page(reply, 200, askForLinkPage()));

  scope.post('/sign-in/link', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    if (!isFromOwnOrigin(request, deps.publicUrl)) return page(reply, 403, NOT_FROM_US);
    const email = formField(request.body, 'email').trim();
    if (!isDeliverableAddress(email))
      return page(
        reply,
        400,
        askForLinkPage({ email: email.slice(0, 254), error: 'Enter the email address of your account, like you@example.com.' }),
      );
    try {
      return await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'account_forms')], async () => {
        // Queued after the answer: how long it takes must not tell whether the address has an account.
        const now = deps.clock();
        setImmediate(() => {
          requestSignInLink(deps.db, { email, now, signInLinkUrl: (secret) => `${deps.publicUrl}/sign-in/link/${secret}` }).catch(
            (error: unknown) => request.log.error({ err: error }, 'could not queue a sign-in link'),
          );
        });
        return page(reply, 200, linkSentPage(email));
      });
    } catch (error) {
      return tooMany(reply, error);
    }
  });

  scope.get('/sign-in/link/:secret', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const secret = request.params.secret;
    const user = isWellFormedSecret(secret) ? await signInLinkAccount(deps.db, secret, deps.clock()) : undefined;
    return user ? page(reply, 200, confirmLinkPage(user.email)) : page(reply, 404, LINK_NOT_VALID);
  });

  scope.post('/sign-in/link/:secret', { bodyLimit: FORM_BODY_LIMIT }, async (request: FastifyRequest<{ Params: Params }>, reply) => {
    if (!isFromOwnOrigin(request, deps.publicUrl)) return page(reply, 403, NOT_FROM_US);
    const secret = request.params.secret;
    const user = isWellFormedSecret(secret) ? await useSignInLink(deps.db, secret, deps.clock()) : undefined;
    if (!user) return page(reply, 404, LINK_NOT_VALID);
    return beginSession(request, reply, { deps, cookies }, { user, method: 'email_link', next: '/app/account?signed_in_by_link=1' });
  });

  scope.get('/account/email/:secret', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const secret = request.params.secret;
    const pending = isWellFormedSecret(secret) ? await pendingEmailChange(deps.db, secret, deps.clock()) : undefined;
    return pending ? page(reply, 200, confirmEmailChangePage(pending.email)) : page(reply, 404, LINK_NOT_VALID);
  });

  scope.post('/account/email/:secret', { bodyLimit: FORM_BODY_LIMIT }, async (request: FastifyRequest<{ Params: Params }>, reply) => {
    if (!isFromOwnOrigin(request, deps.publicUrl)) return page(reply, 403, NOT_FROM_US);
    const secret = request.params.secret;
    if (!isWellFormedSecret(secret)) return page(reply, 404, LINK_NOT_VALID);
    try {
      return await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'account_forms')], async () => {
        const now = deps.clock();
        const outcome = await deps.db.transaction().execute(async (trx) => {
          const change = await confirmEmailChange(trx, secret, now);
          if (change.kind === 'changed') {
            await recordPersonEvent(trx, { user: change.user, action: 'email.changed', origin: clientOf(request, deps), at: now });
          }
          return change;
        });
        if (outcome.kind === 'invalid') return page(reply, 404, LINK_NOT_VALID);
        if (outcome.kind === 'taken')
          return page(reply, 409, confirmEmailChangePage(outcome.email, `Another account uses ${outcome.email} already.`));
        return page(
          reply,
          200,
          messagePage('Your email is changed', `Your account now uses ${outcome.user.email}. Sign in with it from now on.`, {
            href: '/app/account',
            label: 'Go to your account',
          }),
        );
      });
    } catch (error) {
      return tooMany(reply, error);
    }
  });
}
