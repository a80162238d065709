/**
 * GET and POST /oauth/authorize (OAuth 2.1 §4.1; issue 29): an assistant sends a person here; the
 * person signs in if they have not, sees the consent page, and presses "Allow" (a code goes back to
 * the client's redirect URI) or "Deny" (`error=access_denied`). Every answer sent back carries
 * `state` and `iss` (RFC 9207). A request that names an unknown client or a redirect URI it never
 * registered is never sent back anywhere: the person is told what is wrong.
 *
 * The form carries the request back and it is read again in full on POST, so nothing about it is
 * kept between the two; the workspace and scopes are checked against the person's memberships and
 * role then, so a forged form cannot reach further than the person could.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/errors.ts';
import { isRole, type Role } from '../../../core/roles.ts';
import type { Scope } from '../../../core/scopes.ts';
import {
  type AuthorizationReading,
  type AuthorizationRequest,
  authorizationResponseUrl,
  consentChoices,
  findClient,
  grantedScopes,
  guardedDocumentFetch,
  issueAuthorizationCode,
  markClientUsed,
  readAuthorizationRequest,
} from '../../../domains/assistants/index.ts';
import { membershipsOf } from '../../../domains/people/index.ts';
import { workspaceNames } from '../../../domains/workspace/index.ts';
import { type DashboardSession, dashboardSession } from '../dashboard/kit/dashboard-session.ts';
import { refusedForm } from '../dashboard/kit/refused-form.ts';
import { checkSignedInWrite } from '../dashboard/kit/signed-in-write.ts';
import { ACCOUNT_HEADERS, messagePage } from '../http/account-page.ts';
import { formField, formValues } from '../http/form-body.ts';
import type { SessionCookies } from '../http/session-cookie.ts';
import { limitedWrite } from '../http/write-limits.ts';
import type { PublicSurfaceDeps } from '../surface.ts';
import { type AuthorizationParameters, authorizePath, parametersOfForm, parametersOfQuery } from './authorization-parameters.ts';
import { consentHeaders, consentPage, UNANSWERABLE_HEADERS, unanswerablePage } from './consent-page.ts';

/** The consent form: the request's parameters (each at most 2,000 characters, encoded again), the choices, the token. */
export const CONSENT_FORM_LIMIT = 64 * 1024;

interface Membership {
  id: string;
  name: string;
  role: Role;
}

export function registerAuthorizationRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const resource = `${deps.publicUrl}/mcp`;
  const fetchDocument = guardedDocumentFetch({ allowPrivateNetworks: deps.outbound.allowPrivateNetworks, lookup: deps.outbound.lookup });

  /** Reads the request; a client ID metadata document fetched for it counts against the address's registrations. */
  const read = (request: FastifyRequest, parameters: AuthorizationParameters): Promise<AuthorizationReading> =>
    readAuthorizationRequest(parameters, {
      resource,
      lookup: (clientId) =>
        findClient(deps.db, clientId, {
          now: deps.clock(),
          fetchDocument: (url) =>
            limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'client_registrations')], () => fetchDocument(url)),
        }),
    });

  const signInFirst = (reply: FastifyReply, parameters: AuthorizationParameters, extra: Record<string, string> = {}) =>
    reply.redirect(`/sign-in?next=${encodeURIComponent(authorizePath(parameters, extra))}`, 303);

  scope.get('/oauth/authorize', async (request, reply) => {
    const parameters = parametersOfQuery(request.query);
    const reading = await readOrRefuse(request, reply, parameters, 302);
    if (!reading) return reply;
    const session = await dashboardSession(request, deps, cookies);
    const asked = (request.query as Record<string, unknown>).workspace;
    const workspace = typeof asked === 'string' && asked.length <= 64 ? asked : undefined;
    if (!session) return signInFirst(reply, parameters, workspace ? { workspace } : {});
    const memberships = await membershipsWithNames(session);
    if (memberships.length === 0) return noWorkspace(reply);
    const chosen = memberships.find((m) => m.id === workspace) ?? memberships.find((m) => m.id === session.person.workspace?.id);
    const membership = chosen ?? (memberships[0] as Membership);
    const choices = consentChoices(membership.role, reading.scopes);
    return showConsent(reply, 200, { reading, parameters, session, memberships, membership, ticked: new Set(choices.ticked) });
  });

  scope.post('/oauth/authorize', { bodyLimit: CONSENT_FORM_LIMIT }, async (request, reply) => {
    const parameters = parametersOfForm(request.body);
    const check = await checkSignedInWrite(request, deps, cookies, 'form');
    if (check.kind === 'signed_out') return signInFirst(reply, parameters);
    if (check.kind === 'refused') return refusedForm(reply);
    const reading = await readOrRefuse(request, reply, parameters, 303);
    if (!reading) return reply;
    const answer = (values: Record<string, string>) =>
      reply.redirect(authorizationResponseUrl(reading.redirectUri, { ...values, state: reading.state, iss: deps.publicUrl }), 303);

    const decision = formField(request.body, 'decision');
    if (decision === 'deny') return answer({ error: 'access_denied', error_description: 'The person denied the request.' });

    const session = check.session;
    const memberships = await membershipsWithNames(session);
    if (memberships.length === 0) return noWorkspace(reply);
    const membership = memberships.find((m) => m.id === formField(request.body, 'workspace_id'));
    const submitted = formValues(request.body, 'grant');
    const again = (error: string, membershipShown: Membership) =>
      showConsent(reply, 400, {
        reading,
        parameters,
        session,
        memberships,
        membership: membershipShown,
        ticked: new Set(submitted),
        error,
      });
    if (!membership) {
      return again('Choose one of your workspaces: the form named one you do not belong to.', memberships[0] as Membership);
    }
    if (decision !== 'allow') return again('Press Allow or Deny.', membership);
    const granted = grantedScopes(membership.role, submitted.length === 0 ? undefined : submitted);
    if (!granted.ok) return again(granted.problem, membership);

    const now = deps.clock();
    try {
      const code = await limitedWrite(deps.rateLimiter, [deps.addressLimits.of(request, 'account_forms')], async () => {
        const issued = await issueAuthorizationCode(
          deps.db,
          {
            clientId: reading.client.clientId,
            userId: session.person.userId,
            workspaceId: membership.id,
            redirectUri: reading.redirectUri,
            scopes: granted.scopes,
            codeChallenge: reading.codeChallenge,
            resource: reading.resource,
          },
          now,
        );
        await markClientUsed(deps.db, reading.client.clientId, now);
        return issued;
      });
      return answer({ code });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
      return again(error.message, membership);
    }
  });

  /**
   * The request read: valid, or answered here (the problems shown to the person when the client or
   * its redirect URI is unknown, else the refusal sent to the client). Undefined once answered.
   */
  async function readOrRefuse(
    request: FastifyRequest,
    reply: FastifyReply,
    parameters: AuthorizationParameters,
    redirectStatus: 302 | 303,
  ): Promise<AuthorizationRequest | undefined> {
    let reading: AuthorizationReading;
    try {
      reading = await read(request, parameters);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
      reply
        .code(429)
        .headers(error.headers)
        .headers(UNANSWERABLE_HEADERS)
        .send(unanswerablePage([error.message]));
      return undefined;
    }
    if (reading.kind === 'valid') return reading.request;
    if (reading.kind === 'unanswerable') {
      reply.code(400).headers(UNANSWERABLE_HEADERS).send(unanswerablePage(reading.problems));
      return undefined;
    }
    reply.redirect(
      authorizationResponseUrl(reading.redirectUri, {
        error: reading.error,
        error_description: reading.description,
        state: reading.state,
        iss: deps.publicUrl,
      }),
      redirectStatus,
    );
    return undefined;
  }

  async function membershipsWithNames(session: DashboardSession): Promise<Membership[]> {
    const rows = await membershipsOf(deps.db, session.person.userId);
    const names = await workspaceNames(
      deps.db,
      rows.map((row) => row.workspace_id),
    );
    return rows
      .filter((row) => isRole(row.role))
      .map((row) => ({ id: row.workspace_id, name: names.get(row.workspace_id) ?? 'Workspace', role: row.role as Role }));
  }

  function showConsent(
    reply: FastifyReply,
    status: number,
    view: {
      reading: AuthorizationRequest;
      parameters: AuthorizationParameters;
      session: DashboardSession;
      memberships: Membership[];
      membership: Membership;
      ticked: ReadonlySet<string>;
      error?: string;
    },
  ): FastifyReply {
    const { offered } = consentChoices(view.membership.role, view.reading.scopes);
    return reply
      .code(status)
      .headers(consentHeaders(view.reading.redirectUri))
      .send(
        consentPage({
          parameters: view.parameters,
          csrf: view.session.csrf,
          client: {
            name: view.reading.client.clientName,
            clientId: view.reading.client.clientId,
            registration: view.reading.client.registration,
          },
          redirectUri: view.reading.redirectUri,
          person: { name: view.session.person.name, email: view.session.person.email },
          workspaces: view.memberships,
          workspaceId: view.membership.id,
          offered,
          ticked: new Set([...view.ticked].filter((scope) => offered.includes(scope as Scope))),
          error: view.error,
        }),
      );
  }
}

function noWorkspace(reply: FastifyReply): FastifyReply {
  return reply
    .code(403)
    .headers(ACCOUNT_HEADERS)
    .send(
      messagePage(
        'No workspace to connect',
        'You do not belong to any Cuepoint workspace, so there is nothing an assistant could work in. Ask a workspace owner to invite you, then connect again.',
        { href: '/app', label: 'Go to Cuepoint' },
      ),
    );
}
