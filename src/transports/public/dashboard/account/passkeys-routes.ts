/**
 * The account's passkeys (issue 27): GET /app/account/passkeys lists them; adding one is a WebAuthn
 * ceremony of two JSON requests from /passkey-setup.js (POST /app/account/passkeys/options, then
 * POST /app/account/passkeys with the browser's response and a name); renaming and removing are form
 * posts. Each write needs the session, our own origin and the session's CSRF token. Adding, renaming
 * and removing are audit events; removing a passkey ends nothing else.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../../core/errors.ts';
import {
  addPasskey,
  findUser,
  listPasskeys,
  MAX_PASSKEY_NAME_LENGTH,
  MAX_PASSKEYS,
  PasskeyRefused,
  passkeyRegistrationOptions,
  relyingPartyFor,
  removeUserPasskey,
  renameUserPasskey,
} from '../../../../domains/people/index.ts';
import { bodyTooLargeHandler, sendFailure } from '../../http/error-reply.ts';
import { FORM_BODY_LIMIT, formField } from '../../http/form-body.ts';
import { servePageScript } from '../../http/page-serving.ts';
import type { SessionCookies } from '../../http/session-cookie.ts';
import { clientOf } from '../../sign-in/session-start.ts';
import type { PublicSurfaceDeps } from '../../surface.ts';
import { frameOf } from '../frame/dashboard-frame.ts';
import type { DashboardSession } from '../kit/dashboard-session.ts';
import { dashboardSession } from '../kit/dashboard-session.ts';
import { refusedForm } from '../kit/refused-form.ts';
import { checkSignedInWrite } from '../kit/signed-in-write.ts';
import { type PasskeysView, passkeysPage } from './passkeys-page.ts';
import { SIGN_IN_METHODS_HEADERS } from './sign-in-methods-page.ts';

const PAGE = '/app/account/passkeys';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A registration response with its attestation; "none" attestation keeps it to a few KiB. */
const REGISTRATION_BODY_LIMIT = 64 * 1024;

const NOTICES: Record<string, string> = { renamed: 'Passkey renamed.', removed: 'Passkey removed. It can no longer sign you in.' };

type Params = { passkey_id: string };

export function registerPasskeysRoutes(scope: FastifyInstance, deps: PublicSurfaceDeps, cookies: SessionCookies): void {
  const relyingParty = relyingPartyFor(deps.publicUrl);
  servePageScript(scope, '/passkey-setup.js', 'passkey-setup.js');

  async function render(
    reply: FastifyReply,
    session: DashboardSession,
    status: number,
    extra: Pick<PasskeysView, 'notice' | 'error' | 'rename' | 'renaming'> = {},
  ) {
    const [frame, passkeys] = await Promise.all([frameOf(deps, session), listPasskeys(deps.db, session.person.userId)]);
    return reply
      .code(status)
      .headers(SIGN_IN_METHODS_HEADERS)
      .send(passkeysPage({ frame, passkeys, maxPasskeys: MAX_PASSKEYS, maxNameLength: MAX_PASSKEY_NAME_LENGTH, ...extra }));
  }

  const origin = (request: FastifyRequest) => clientOf(request, deps);

  scope.get(PAGE, async (request, reply) => {
    const session = await dashboardSession(request, deps, cookies);
    if (!session) return reply.redirect(`/sign-in?next=${PAGE}`, 303);
    const query = request.query as Record<string, unknown>;
    let notice = typeof query.done === 'string' ? NOTICES[query.done] : undefined;
    if (typeof query.added === 'string') {
      const added = (await listPasskeys(deps.db, session.person.userId)).find((passkey) => passkey.id === query.added);
      if (added) notice = `Passkey “${added.name}” added. You can use it the next time you sign in.`;
    }
    const renaming = typeof query.rename === 'string' && UUID.test(query.rename) ? query.rename : undefined;
    return render(reply, session, 200, { notice, renaming });
  });

  scope.post(
    '/app/account/passkeys/:passkey_id/name',
    { bodyLimit: FORM_BODY_LIMIT },
    async (request: FastifyRequest<{ Params: Params }>, reply) => {
      const check = await checkSignedInWrite(request, deps, cookies, 'form');
      if (check.kind === 'signed_out') return reply.redirect(`/sign-in?next=${PAGE}`, 303);
      if (check.kind === 'refused') return refusedForm(reply);
      const { passkey_id: passkeyId } = request.params;
      const name = formField(request.body, 'name');
      const user = { id: check.session.person.userId, name: check.session.person.name };
      try {
        if (!UUID.test(passkeyId)) throw new PasskeyRefused('not_found', 'You have no such passkey. It may have been removed already.');
        await renameUserPasskey(deps.db, { user, passkeyId, name, origin: origin(request), now: deps.clock() });
      } catch (error) {
        if (!(error instanceof PasskeyRefused)) throw error;
        if (error.code === 'not_found') return render(reply, check.session, 404, { error: error.message });
        return render(reply, check.session, 400, { rename: { passkeyId, value: name.slice(0, 200), problem: error.message } });
      }
      return reply.redirect(`${PAGE}?done=renamed`, 303);
    },
  );

  scope.post(
    '/app/account/passkeys/:passkey_id/remove',
    { bodyLimit: FORM_BODY_LIMIT },
    async (request: FastifyRequest<{ Params: Params }>, reply) => {
      const check = await checkSignedInWrite(request, deps, cookies, 'form');
      if (check.kind === 'signed_out') return reply.redirect(`/sign-in?next=${PAGE}`, 303);
      if (check.kind === 'refused') return refusedForm(reply);
      const { passkey_id: passkeyId } = request.params;
      const user = { id: check.session.person.userId, name: check.session.person.name };
      try {
        if (!UUID.test(passkeyId)) throw new PasskeyRefused('not_found', 'You have no such passkey. It may have been removed already.');
        await removeUserPasskey(deps.db, { user, passkeyId, origin: origin(request), now: deps.clock() });
      } catch (error) {
        if (!(error instanceof PasskeyRefused)) throw error;
        return render(reply, check.session, 404, { error: error.message });
      }
      return reply.redirect(`${PAGE}?done=removed`, 303);
    },
  );

  // The ceremony's JSON requests, in a scope of their own so a body over the limit is a 413 naming it.
  scope.register(async (json) => {
    json.setErrorHandler(bodyTooLargeHandler('A new passkey', REGISTRATION_BODY_LIMIT));

    json.post('/app/account/passkeys/options', { bodyLimit: REGISTRATION_BODY_LIMIT }, async (request, reply) => {
      const check = await checkSignedInWrite(request, deps, cookies, 'header');
      if (check.kind !== 'allowed') return refusedJson(request, reply, check.kind);
      try {
        const user = await findUser(deps.db, check.session.person.userId);
        if (!user) return refusedJson(request, reply, 'signed_out');
        const options = await passkeyRegistrationOptions(deps.db, { user, relyingParty, now: deps.clock() });
        return reply.code(200).header('Cache-Control', 'no-store').send({ options });
      } catch (error) {
        return sendFailure(request, reply, error, 'no passkey options');
      }
    });

    json.post('/app/account/passkeys', { bodyLimit: REGISTRATION_BODY_LIMIT }, async (request, reply) => {
      const check = await checkSignedInWrite(request, deps, cookies, 'header');
      if (check.kind !== 'allowed') return refusedJson(request, reply, check.kind);
      const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      try {
        const passkey = await addPasskey(deps.db, {
          user: { id: check.session.person.userId, name: check.session.person.name },
          response: body.response,
          name: typeof body.name === 'string' ? body.name : '',
          relyingParty,
          origin: origin(request),
          now: deps.clock(),
        });
        return reply.code(201).header('Cache-Control', 'no-store').send({ passkey_id: passkey.id, name: passkey.name });
      } catch (error) {
        return sendFailure(request, reply, error, 'no passkey added');
      }
    });
  });
}

function refusedJson(request: FastifyRequest, reply: FastifyReply, why: 'signed_out' | 'refused'): FastifyReply {
  return sendFailure(
    request,
    reply,
    why === 'signed_out'
      ? new AppError('unauthorized', 'You are signed out. Sign in again, then add the passkey.')
      : new AppError(
          'forbidden',
          'This request did not come from a Cuepoint page (or the page was too old). Reload the page and try again.',
        ),
    'no passkey change',
  );
}
