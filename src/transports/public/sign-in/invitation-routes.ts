/**
 * GET and POST /invitations/{secret}: the page an invitation's link opens, and accepting it. A person
 * signed in joins with their account; anyone else creates one (name and password, and email when the
 * link names none) and is signed in. The link's secret is in the path, so the page never sends a
 * referrer. Accepting draws from the address's account-forms limit: it may hash a password.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, type FieldProblem } from '../../../core/errors.ts';
import { inputProblems } from '../../../core/pipeline/validation.ts';
import { Email, PersonName } from '../../../core/schemas.ts';
import {
  ABSOLUTE_LIFETIME_MS,
  type Acceptance,
  acceptInvitation,
  csrfTokenFor,
  csrfTokenMatches,
  hashPassword,
  InvitationRefused,
  isWellFormedSecret,
  liveSession,
  newPasswordProblems,
  openInvitation,
  type SignedIn,
  startSession,
} from '../../../domains/people/index.ts';
import { workspaceFacts } from '../../../domains/workspace/index.ts';
import { ACCOUNT_HEADERS, messagePage } from '../http/account-page.ts';
import { FORM_BODY_LIMIT, formField } from '../http/form-body.ts';
import { isFromOwnOrigin } from '../http/same-origin.ts';
import type { SessionCookies } from '../http/session-cookie.ts';
import { limitedWrite } from '../http/write-limits.ts';
import type { PublicSurfaceDeps } from '../surface.ts';
import { newAccountInvitationPage, signedInInvitationPage } from './invitation-page.ts';

type Params = { secret: string };

const NewAccountForm = Type.Object(
  {
    email: Email('The new account’s email.'),
    name: PersonName('The person’s name.'),
    password: Type.String(),
  },
  { additionalProperties: false },
);

const LINK_NOT_VALID = messagePage(
  'This invitation link is not valid',
  'It has expired, was already used, or was withdrawn. Ask whoever invited you for a new one.',
  { href: '/sign-in', label: 'Go to sign-in' },
);

export function registerInvitationRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const page = (reply: FastifyReply, status: number, html: string) => reply.code(status).headers(ACCOUNT_HEADERS).send(html);

  async function signedIn(request: FastifyRequest): Promise<SignedIn | undefined> {
    const secret = cookies.read(request);
    return isWellFormedSecret(secret) ? liveSession(deps.db, secret, deps.clock()) : undefined;
  }

  async function invitationView(secret: string) {
    if (!isWellFormedSecret(secret)) return undefined;
    const invitation = await openInvitation(deps.db, secret, deps.clock());
    if (!invitation) return undefined;
    const facts = await workspaceFacts(deps.db, invitation.workspace_id);
    return { invitation, workspaceName: facts?.name ?? 'the workspace', role: invitation.role, invitedEmail: invitation.email };
  }

  scope.get('/invitations/:secret', async (request: FastifyRequest<{ Params: Params }>, reply) => {
    const view = await invitationView(request.params.secret);
    if (!view) return page(reply, 404, LINK_NOT_VALID);
    const person = await signedIn(request);
    if (person)
      return page(
        reply,
        200,
        signedInInvitationPage({ ...view, signedInAs: person.email, csrf: csrfTokenFor(deps.secret, person.sessionId) }),
      );
    return page(reply, 200, newAccountInvitationPage(view));
  });

  scope.post('/invitations/:secret', { bodyLimit: FORM_BODY_LIMIT }, async (request: FastifyRequest<{ Params: Params }>, reply) => {
    if (!isFromOwnOrigin(request, deps.publicUrl)) {
      return page(
        reply,
        403,
        messagePage('Not sent from Cuepoint', 'This form came from another site, so it was refused. Open your invitation link again.'),
      );
    }
    const view = await invitationView(request.params.secret);
    if (!view) return page(reply, 404, LINK_NOT_VALID);
    try {
      return await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'account_forms')], () => accept(request, reply, view));
    } catch (error) {
      if (error instanceof AppError && error.code === 'rate_limited') {
        const seconds = (error.details as { retry_after_seconds: number }).retry_after_seconds;
        return reply
          .headers(error.headers)
          .code(429)
          .headers(ACCOUNT_HEADERS)
          .send(
            messagePage('Too many tries', `Too many account requests were sent from your network. Please try again in ${seconds} seconds.`),
          );
      }
      throw error;
    }
  });

  async function accept(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    view: NonNullable<Awaited<ReturnType<typeof invitationView>>>,
  ) {
    const secret = request.params.secret;
    const person = await signedIn(request);
    let acceptance: Acceptance;
    if (person) {
      if (!csrfTokenMatches(deps.secret, person.sessionId, formField(request.body, 'csrf'))) {
        return page(
          reply,
          403,
          signedInInvitationPage({
            ...view,
            signedInAs: person.email,
            csrf: csrfTokenFor(deps.secret, person.sessionId),
            error: 'This form has expired. Press the button again.',
          }),
        );
      }
      acceptance = { kind: 'signed_in', userId: person.userId };
    } else {
      const values = {
        email: view.invitedEmail ?? formField(request.body, 'email'),
        name: formField(request.body, 'name'),
        password: formField(request.body, 'password'),
      };
      const problems: FieldProblem[] = inputProblems(NewAccountForm, { ...values }, 'json');
      if (!problems.some((problem) => problem.field === 'password'))
        problems.push(...(await newPasswordProblems(values.password, 'password', values.email)));
      if (problems.length > 0) {
        const byField = Object.fromEntries(problems.map((problem) => [problem.field, sentence(problem)]));
        return page(
          reply,
          400,
          newAccountInvitationPage({ ...view, values, problems: byField, error: 'Please fix the fields marked below.' }),
        );
      }
      acceptance = {
        kind: 'new_account',
        email: values.email.trim(),
        name: values.name.trim(),
        passwordHash: await hashPassword(values.password),
      };
    }
    const now = deps.clock();
    let accepted: Awaited<ReturnType<typeof acceptInvitation>>;
    try {
      const userAgent = request.headers['user-agent'];
      const origin = { address: deps.addressLimits.addressOf(request), ...(typeof userAgent === 'string' ? { userAgent } : {}) };
      accepted = await deps.db.transaction().execute((trx) => acceptInvitation(trx, secret, acceptance, now, origin));
    } catch (error) {
      if (!(error instanceof InvitationRefused)) throw error;
      const status = error.status;
      if (person)
        return page(
          reply,
          status,
          signedInInvitationPage({
            ...view,
            signedInAs: person.email,
            csrf: csrfTokenFor(deps.secret, person.sessionId),
            error: error.message,
          }),
        );
      return page(
        reply,
        status,
        newAccountInvitationPage({
          ...view,
          values: { email: formField(request.body, 'email'), name: formField(request.body, 'name') },
          error: error.message,
        }),
      );
    }
    if (person) return reply.redirect('/app', 303);
    const { secret: sessionSecret } = await startSession(deps.db, {
      userId: accepted.userId,
      workspaceId: accepted.workspaceId,
      address: deps.addressLimits.addressOf(request),
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
      now,
    });
    return reply.header('Set-Cookie', cookies.set(sessionSecret, ABSOLUTE_LIFETIME_MS / 1000)).redirect('/app', 303);
  }
}

/** "must be at least 10 characters long" → "Must be at least 10 characters long." */
function sentence(problem: FieldProblem): string {
  const text = problem.problem;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;
}
