/**
 * POST /oauth/token (OAuth 2.1 §3.2, §4.1.3, §4.3) and POST /oauth/revoke (RFC 7009): form bodies
 * from public clients, which name themselves by `client_id` and prove nothing else (no secrets: the
 * code's PKCE verifier and the refresh token's rotation are the proof). Refusals are RFC 6749 error
 * bodies naming the problem, never cached; a parameter sent twice is refused.
 *
 * Not limited per address: an assistant's servers refresh for all of its users from a few addresses,
 * and codes and refresh tokens are 256 random bits, so there is nothing to guess.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import {
  endGrantOfCode,
  findClient,
  guardedDocumentFetch,
  type IssuedTokens,
  redeemAuthorizationCode,
  refreshGrant,
  revokeGrantByToken,
  startGrant,
  type TokenCaller,
} from '../../../domains/assistants/index.ts';
import { acceptFormBodies, formValues } from '../http/form-body.ts';
import type { PublicSurfaceDeps } from '../surface.ts';
import { NO_STORE, sendOAuthError, sendOAuthFailure } from './oauth-errors.ts';

const BODY_LIMIT = 16 * 1024;
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization',
  'Access-Control-Max-Age': '86400',
} as const;

/** The single value of each named parameter; a problem for one sent twice. */
function parametersOf(body: unknown, names: readonly string[]): { values: Record<string, string | undefined>; problems: string[] } {
  const values: Record<string, string | undefined> = {};
  const problems: string[] = [];
  for (const name of names) {
    const sent = formValues(body, name);
    if (sent.length > 1) problems.push(`${name} must be given once`);
    else values[name] = sent[0] === '' ? undefined : sent[0];
  }
  return { values, problems };
}

export async function registerTokenRoutes(app: FastifyInstance, deps: PublicSurfaceDeps): Promise<void> {
  const fetchDocument = guardedDocumentFetch({ allowPrivateNetworks: deps.outbound.allowPrivateNetworks, lookup: deps.outbound.lookup });
  const callerOf = (request: FastifyRequest): TokenCaller => ({
    address: deps.addressLimits.addressOf(request),
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : undefined,
  });

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    acceptFormBodies(scope);
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      reply.headers(CORS);
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return sendOAuthError(reply, 413, 'invalid_request', `The request is over ${BODY_LIMIT / 1024} KiB.`);
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.code === 'FST_ERR_CTP_EMPTY_TYPE') {
        return sendOAuthError(reply, 400, 'invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
      }
      if (error.statusCode === 400) return sendOAuthError(reply, 400, 'invalid_request', `The body is not a form: ${error.message}`);
      throw error;
    });
    for (const path of ['/oauth/token', '/oauth/revoke'])
      scope.options(path, async (_request, reply) => reply.code(204).headers(CORS).send());

    scope.post('/oauth/token', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
      reply.headers(CORS);
      const { values, problems } = parametersOf(request.body, [
        'grant_type',
        'client_id',
        'code',
        'redirect_uri',
        'code_verifier',
        'resource',
        'refresh_token',
        'scope',
      ]);
      if (problems.length > 0) return sendOAuthError(reply, 400, 'invalid_request', `${problems.join('; ')}.`);
      const grantType = values.grant_type;
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        return sendOAuthError(
          reply,
          400,
          grantType === undefined ? 'invalid_request' : 'unsupported_grant_type',
          'grant_type must be authorization_code or refresh_token.',
        );
      }
      const clientId = values.client_id;
      if (clientId === undefined)
        return sendOAuthError(reply, 400, 'invalid_request', 'client_id is required (a public client names itself).');
      try {
        const now = deps.clock();
        const caller = callerOf(request);

        // The grant a refresh token belongs to names its client: no document needs reading again.
        if (grantType === 'refresh_token') {
          if (values.refresh_token === undefined) return sendOAuthError(reply, 400, 'invalid_request', 'refresh_token is required.');
          if (values.resource !== undefined && values.resource !== `${deps.publicUrl}/mcp`) {
            return sendOAuthError(
              reply,
              400,
              'invalid_target',
              `resource must be ${deps.publicUrl}/mcp, the only resource this server issues tokens for.`,
            );
          }
          const refreshed = await refreshGrant(deps.db, { refreshToken: values.refresh_token, clientId, caller, now });
          if ('ok' in refreshed) return sendOAuthError(reply, 400, refreshed.error, refreshed.description);
          return sendTokens(reply, refreshed);
        }

        const found = await findClient(deps.db, clientId, { fetchDocument, now });
        if (!found.ok) return sendOAuthError(reply, 401, 'invalid_client', `${found.problems.join('; ')}.`);
        const missing = (['code', 'redirect_uri', 'code_verifier'] as const).filter((name) => values[name] === undefined);
        if (missing.length > 0)
          return sendOAuthError(reply, 400, 'invalid_request', `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required.`);
        const redeemed = await redeemAuthorizationCode(deps.db, {
          code: values.code,
          clientId,
          redirectUri: values.redirect_uri,
          verifier: values.code_verifier,
          resource: values.resource,
          now,
        });
        if (!redeemed.ok) {
          if (redeemed.replayOf) await endGrantOfCode(deps.db, { codeHash: redeemed.replayOf.codeHash, caller, now });
          return sendOAuthError(reply, 400, 'invalid_grant', redeemed.description);
        }
        const issued = await startGrant(deps.db, {
          code: redeemed.grant,
          codeHash: redeemed.codeHash,
          clientName: found.client.clientName,
          caller,
          now,
        });
        return sendTokens(reply, issued);
      } catch (error) {
        return sendOAuthFailure(reply, error);
      }
    });

    scope.post('/oauth/revoke', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
      reply.headers(CORS);
      const { values, problems } = parametersOf(request.body, ['token', 'token_type_hint', 'client_id']);
      if (values.token === undefined) problems.push('token is required');
      if (values.client_id === undefined) problems.push('client_id is required (a public client names itself)');
      if (problems.length > 0) return sendOAuthError(reply, 400, 'invalid_request', `${problems.join('; ')}.`);
      try {
        // RFC 7009 §2.2: the same answer whether or not the token was known, or already revoked.
        await revokeGrantByToken(deps.db, {
          token: values.token as string,
          clientId: values.client_id as string,
          caller: callerOf(request),
          now: deps.clock(),
        });
        return reply.code(200).headers(NO_STORE).send();
      } catch (error) {
        return sendOAuthFailure(reply, error);
      }
    });
  });
}

function sendTokens(reply: import('fastify').FastifyReply, issued: IssuedTokens) {
  return reply
    .code(200)
    .headers(NO_STORE)
    .send({
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: issued.expiresInSeconds,
      refresh_token: issued.refreshToken,
      scope: issued.scopes.join(' '),
    });
}
