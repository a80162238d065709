/**
 * /app/account and its forms (issue 27): rename, ask to change the email (a link to the new
 * address), change the password (every other session ends), end one session or all of them. Each form
 * needs the service's own origin and the session's CSRF token; each change is an audit event.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, type FieldProblem } from '../../../../core/errors.ts';
import { inputProblems } from '../../../../core/pipeline/validation.ts';
import { Email, PersonName } from '../../../../core/schemas.ts';
import {
  changePassword,
  csrfTokenMatches,
  endSession,
  endUserSessions,
  findUser,
  listUserSessions,
  recordPersonEvent,
  renameUser,
  requestEmailChange,
} from '../../../../domains/people/index.ts';
import { FORM_BODY_LIMIT, formField } from '../../http/form-body.ts';
import { isFromOwnOrigin } from '../../http/same-origin.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import { limitedWrite } from '../../http/write-limits.ts';
import { clientOf } from '../../sign-in/session-start.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { frameOf } from '../frame/dashboard-frame.ts';
import { DASHBOARD_HEADERS, dashboardPage } from '../frame/dashboard-page.ts';
import { type DashboardSession, dashboardSession } from '../kit/dashboard-session.ts';
import { refusedForm } from '../kit/refused-form.ts';
import { type AccountView, accountContent, browserLabel } from './account-page.ts';

type Params = { session_id: string };

const NameForm = Type.Object({ name: PersonName('Your name.') }, { additionalProperties: false });
const EmailForm = Type.Object({ new_email: Email('The new address.') }, { additionalProperties: false });

const NOTICES: Record<string, string> = {
  name: 'Your name is saved.',
  email: 'We sent a confirmation link to your new address. Your email changes when you follow it.',
  password: 'Your password is changed, and every other device is signed out.',
  session: 'That device is signed out.',
  signed_in_by_link: 'You are signed in. If you forgot your password, set a new one below.',
};

export function registerAccountRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  async function render(reply: FastifyReply, session: DashboardSession, status: number, extra: Partial<AccountView> = {}) {
    const now = deps.clock();
    const [user, sessions, frame] = await Promise.all([
      findUser(deps.db, session.person.userId),
      listUserSessions(deps.db, session.person.userId, now),
      frameOf(deps, session),
    ]);
    const view: AccountView = {
      name: user?.name ?? session.person.name,
      email: user?.email ?? session.person.email,
      hasPassword: Boolean(user?.password_hash),
      csrf: session.csrf,
      sessions: sessions.map((s) => ({
        id: s.id,
        current: s.id === session.person.sessionId,
        createdAt: s.created_at,
        lastSeenAt: s.last_seen_at,
        address: s.address,
        browser: browserLabel(s.user_agent),
      })),
      ...extra,
    };
    return reply
      .code(status)
      .headers(DASHBOARD_HEADERS)
      .send(dashboardPage('Your account', frame, accountContent(view)));
  }

  /** The session of a form post from our own page, or the answer that refuses it. */
  async function formSession(request: FastifyRequest, reply: FastifyReply): Promise<DashboardSession | FastifyReply> {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect('/sign-in?next=/app/account', 303);
    if (
      !isFromOwnOrigin(request, deps.publicUrl) ||
      !csrfTokenMatches(deps.secret, session.person.sessionId, formField(request.body, 'csrf'))
    ) {
      return refusedForm(reply);
    }
    return session;
  }

  /** `write` within the address's account-forms limit; over it, the page says when to try again. */
  async function limited(request: FastifyRequest, reply: FastifyReply, session: DashboardSession, write: () => Promise<FastifyReply>) {
    try {
      return await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'account_forms')], write);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
      const seconds = (error.details as { retry_after_seconds: number }).retry_after_seconds;
      reply.headers(error.headers);
      return render(reply, session, 429, {
        notice: `Too many account requests were sent from your network. Please try again in ${seconds} seconds.`,
      });
    }
  }

  const problemsByField = (problems: FieldProblem[]) =>
    Object.fromEntries(
      problems.map((p) => [p.field, `${p.problem.charAt(0).toUpperCase()}${p.problem.slice(1)}${p.problem.endsWith('.') ? '' : '.'}`]),
    );

  scope.get('/app/account', async (request, reply) => {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect('/sign-in?next=/app/account', 303);
    const query = request.query as Record<string, unknown>;
    const shown = Object.keys(NOTICES).find((key) => query[key] === '1');
    return render(reply, session, 200, shown ? { notice: NOTICES[shown] } : {});
  });

  scope.post('/app/account/name', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await formSession(request, reply);
    if (!('person' in session)) return session;
    const name = formField(request.body, 'name');
    const problems = inputProblems(NameForm, { name }, 'json');
    if (problems.length > 0) return render(reply, session, 400, { problems: problemsByField(problems), values: { name } });
    await renameUser(deps.db, session.person.userId, name.trim(), deps.clock());
    return reply.redirect('/app/account?name=1', 303);
  });

  scope.post('/app/account/email', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await formSession(request, reply);
    if (!('person' in session)) return session;
    const newEmail = formField(request.body, 'new_email');
    const problems = inputProblems(EmailForm, { new_email: newEmail }, 'json');
    if (problems.length > 0) return render(reply, session, 400, { problems: problemsByField(problems), values: { new_email: newEmail } });
    const outcome = await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'account_forms')], () =>
      deps.db.transaction().execute((trx) =>
        requestEmailChange(trx, {
          userId: session.person.userId,
          newEmail,
          now: deps.clock(),
          confirmUrl: (secret) => `${deps.publicUrl}/account/email/${secret}`,
        }),
      ),
    );
    if (outcome.kind === 'taken') {
      return render(reply, session, 409, {
        problems: { new_email: 'Another account uses this address already.' },
        values: { new_email: newEmail },
      });
    }
    if (outcome.kind === 'unchanged')
      return render(reply, session, 400, {
        problems: { new_email: 'This is your email already.' },
        values: { new_email: newEmail },
      });
    return reply.redirect('/app/account?email=1', 303);
  });

  scope.post('/app/account/password', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await formSession(request, reply);
    if (!('person' in session)) return session;
    const now = deps.clock();
    return limited(request, reply, session, async () => {
      const outcome = await changePassword(deps.db, {
        userId: session.person.userId,
        sessionId: session.person.sessionId,
        current: formField(request.body, 'current_password'),
        next: formField(request.body, 'new_password'),
        now,
      });
      if (outcome.kind === 'refused') return render(reply, session, 400, { problems: problemsByField(outcome.problems) });
      await recordPersonEvent(deps.db, {
        user: { id: session.person.userId, name: session.person.name },
        action: 'password.changed',
        origin: clientOf(request, deps),
        at: now,
        details: { other_sessions_ended: outcome.otherSessionsEnded },
      });
      return reply.redirect('/app/account?password=1', 303);
    });
  });

  scope.post(
    '/app/account/sessions/:session_id/end',
    { bodyLimit: FORM_BODY_LIMIT },
    async (request: FastifyRequest<{ Params: Params }>, reply) => {
      const session = await formSession(request, reply);
      if (!('person' in session)) return session;
      const now = deps.clock();
      // Only one of the person's own sessions: another person's id ends nothing.
      const own = (await listUserSessions(deps.db, session.person.userId, now)).find((s) => s.id === request.params.session_id);
      if (own) await endSession(deps.db, own.id, now);
      return reply.redirect('/app/account?session=1', 303);
    },
  );

  scope.post('/app/account/sessions/end-all', { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
    const session = await formSession(request, reply);
    if (!('person' in session)) return session;
    const now = deps.clock();
    const ended = await endUserSessions(deps.db, session.person.userId, now);
    await recordPersonEvent(deps.db, {
      user: { id: session.person.userId, name: session.person.name },
      action: 'sessions.ended',
      origin: clientOf(request, deps),
      at: now,
      details: { sessions_ended: ended },
    });
    return reply.header('Set-Cookie', cookies.clear()).redirect('/sign-in?signed_out=1', 303);
  });
}
