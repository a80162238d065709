/**
 * The account's second factor (issue 27): GET /app/account/two-factor; POST …/setup makes a new secret
 * that waits, …/confirm turns it on with a code from it, …/cancel drops a secret never confirmed, and
 * …/disable turns it off with the password or a current code (a wrong one counts toward the sign-in
 * lockout). Each write needs the session, our own origin and the session's CSRF token; turning it on
 * and off are audit events.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  beginTwoFactorSetup,
  cancelTwoFactorSetup,
  findUser,
  groupedSecret,
  totpUri,
  turnOffTwoFactor,
  turnOnTwoFactor,
  twoFactorState,
} from '../../../../domains/people/index.ts';
import { FORM_BODY_LIMIT, formField } from '../../http/form-body.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import { clientOf } from '../../sign-in/session-start.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { frameOf } from '../frame/dashboard-frame.ts';
import { type DashboardSession, dashboardSession } from '../kit/dashboard-session.ts';
import { refusedForm } from '../kit/refused-form.ts';
import { checkSignedInWrite } from '../kit/signed-in-write.ts';
import { SIGN_IN_METHODS_HEADERS } from './sign-in-methods-page.ts';
import { twoFactorPage } from './two-factor-page.ts';

const PAGE = '/app/account/two-factor';

const NOTICES: Record<string, string> = {
  on: 'Two-factor authentication is on. The next time you sign in with your password, have your authenticator app ready.',
  off: 'Two-factor authentication is off. Your password alone signs you in.',
  canceled: 'Setup canceled. Nothing changed.',
};

export function registerTwoFactorRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  async function render(reply: FastifyReply, session: DashboardSession, status: number, extra: { notice?: string; error?: string } = {}) {
    const [frame, user] = await Promise.all([frameOf(deps, session), findUser(deps.db, session.person.userId)]);
    if (!user) return reply.redirect(`/sign-in?next=${PAGE}`, 303);
    const state = twoFactorState(deps.secret, user);
    const hasPassword = user.password_hash !== null;
    const view =
      state.kind === 'pending'
        ? { state: 'pending' as const, email: user.email, groupedKey: groupedSecret(state.secret), uri: totpUri(state.secret, user.email) }
        : state.kind === 'on'
          ? { state: 'on' as const, since: state.since, hasPassword }
          : { state: 'off' as const, hasPassword };
    return reply
      .code(status)
      .headers(SIGN_IN_METHODS_HEADERS)
      .header('Referrer-Policy', 'no-referrer')
      .send(twoFactorPage({ frame, ...extra, ...view }));
  }

  /** The session of a write that passed its checks, or the answer already sent. */
  async function allowed(request: FastifyRequest, reply: FastifyReply): Promise<DashboardSession | FastifyReply> {
    const check = await checkSignedInWrite(request, deps, cookies, 'form');
    if (check.kind === 'signed_out') return reply.redirect(`/sign-in?next=${PAGE}`, 303);
    if (check.kind === 'refused') return refusedForm(reply);
    return check.session;
  }
  const isSession = (value: DashboardSession | FastifyReply): value is DashboardSession => 'person' in value;

  scope.get(PAGE, async (request, reply) => {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect(`/sign-in?next=${PAGE}`, 303);
    const done = (request.query as Record<string, unknown>).done;
    return render(reply, session, 200, { notice: typeof done === 'string' ? NOTICES[done] : undefined });
  });

  scope.post('/app/account/two-factor/setup', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await allowed(request, reply);
    if (!isSession(session)) return session;
    await beginTwoFactorSetup(deps.db, deps.secret, session.person.userId, deps.clock());
    return reply.redirect(PAGE, 303);
  });

  scope.post('/app/account/two-factor/cancel', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await allowed(request, reply);
    if (!isSession(session)) return session;
    await cancelTwoFactorSetup(deps.db, session.person.userId, deps.clock());
    return reply.redirect(`${PAGE}?done=canceled`, 303);
  });

  scope.post('/app/account/two-factor/confirm', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await allowed(request, reply);
    if (!isSession(session)) return session;
    const user = await findUser(deps.db, session.person.userId);
    if (!user) return reply.redirect(`/sign-in?next=${PAGE}`, 303);
    const code = formField(request.body, 'code');
    if (!code.trim()) return render(reply, session, 400, { error: 'Enter the 6-digit code your authenticator app shows.' });
    const now = deps.clock();
    const on = await turnOnTwoFactor(deps.db, deps.secret, { user, code, origin: clientOf(request, deps), now });
    if (!on)
      return render(reply, session, 400, {
        error: 'That code is not right. Check that the app shows the key above, and enter the code it shows now.',
      });
    return reply.redirect(`${PAGE}?done=on`, 303);
  });

  scope.post('/app/account/two-factor/disable', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await allowed(request, reply);
    if (!isSession(session)) return session;
    const user = await findUser(deps.db, session.person.userId);
    if (!user) return reply.redirect(`/sign-in?next=${PAGE}`, 303);
    if (!user.totp_enabled_at) return reply.redirect(PAGE, 303);
    const origin = clientOf(request, deps);
    const outcome = await turnOffTwoFactor(deps.db, deps.secret, {
      user,
      proof: formField(request.body, 'proof'),
      address: origin.address,
      origin,
      now: deps.clock(),
    });
    if (outcome.kind === 'locked') {
      const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      return render(reply, session, 429, {
        error: `Too many wrong passwords or codes. For your safety, try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      });
    }
    if (outcome.kind === 'refused')
      return render(reply, session, 401, { error: 'That is neither your password nor a current code. Nothing changed.' });
    return reply.redirect(`${PAGE}?done=off`, 303);
  });
}
