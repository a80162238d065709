/**
 * POST /oauth/register: dynamic client registration (RFC 7591), the fallback for assistants that
 * cannot be known by a client ID metadata document. Open to anyone, as the MCP authorization spec
 * expects (a client registers before any person is involved), so it is limited per client address,
 * takes at most 16 KiB of JSON, and a registration nobody ever uses is swept after 30 days.
 *
 * Answers `201` with the client's metadata as registered (`client_id`, no secret: every client is
 * public, RFC 7591 §3.2.1), or `400 invalid_redirect_uri` / `invalid_client_metadata` naming every
 * problem. Browser-based clients (the MCP Inspector) register from their own origin, so the endpoint
 * answers CORS requests from anywhere; it reads no cookie, so that opens nothing.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { jsonTextProblem } from '../../../core/pipeline/input-bounds.ts';
import { readClientMetadata, registerClient } from '../../../domains/assistants/index.ts';
import { limitedWrite } from '../http/write-limits.ts';
import type { PublicSurfaceDeps } from '../surface.ts';
import { NO_STORE, sendOAuthError, sendOAuthFailure } from './oauth-errors.ts';

const BODY_LIMIT = 16 * 1024;
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
} as const;

export async function registerClientRegistrationRoute(app: FastifyInstance, deps: PublicSurfaceDeps): Promise<void> {
  await app.register(async (scope) => {
    const parseJson = scope.getDefaultJsonParser('error', 'error');
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
      const shape = jsonTextProblem(body as string);
      if (shape) return done(Object.assign(new Error(shape), { statusCode: 400, code: 'CUE_BAD_JSON' }), undefined);
      parseJson(request, body as string, done);
    });
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      reply.headers(CORS);
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendOAuthError(reply, 413, 'invalid_client_metadata', `The registration is over ${BODY_LIMIT / 1024} KiB.`);
      }
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        return sendOAuthError(reply, 415, 'invalid_client_metadata', 'Send the registration as application/json.');
      }
      if (error.statusCode === 400) {
        return sendOAuthError(reply, 400, 'invalid_client_metadata', `The body is not acceptable JSON: ${error.message}`);
      }
      throw error;
    });

    scope.options('/oauth/register', async (_request, reply) => reply.code(204).headers(CORS).send());
    scope.post('/oauth/register', async (request, reply) => {
      reply.headers(CORS);
      const reading = readClientMetadata(request.body);
      if (!reading.ok) return sendOAuthError(reply, 400, reading.code, `${reading.problems.join('; ')}.`);
      try {
        const limits = [deps.addressLimits.of(request, 'client_registrations')];
        const client = await limitedWrite(deps.rateLimiter, limits, () => registerClient(deps.db, reading.metadata, deps.clock()));
        return reply
          .code(201)
          .headers(NO_STORE)
          .send({
            client_id: client.clientId,
            client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
            client_name: client.clientName,
            ...(client.clientUri ? { client_uri: client.clientUri } : {}),
            redirect_uris: client.redirectUris,
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          });
      } catch (error) {
        return sendOAuthFailure(reply, error);
      }
    });
  });
}
