/**
 * buildApp: the whole HTTP surface as a Fastify instance that never listens by itself, so tests drive
 * it with inject() or a port of their choosing. Health, readiness and the MCP endpoint live outside
 * /v1; the REST API and its OpenAPI document under it.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { apiOperations, catalog, checkCatalog } from './catalog.ts';
import { AppError, errorBody } from './core/errors.ts';
import type { AnyOperation } from './core/operation.ts';
import { credentialUseRecorder } from './core/pipeline/credential-use.ts';
import { createPipeline } from './core/pipeline/pipeline.ts';
import { authenticate } from './core/pipeline/principal.ts';
import { retryAfter } from './core/pipeline/unavailable.ts';
import { type Dependencies, pipelineDeps } from './dependencies.ts';
import { createViewingTokens } from './domains/viewing/index.ts';
import { getAssistantGuidance } from './domains/workspace/index.ts';
import { createMediaLinks } from './media/media-links.ts';
import { createCallOrigins } from './transports/call-origin.ts';
import { registerMcpRoute } from './transports/mcp/route.ts';
import { type AddressCeilings, createAddressLimits } from './transports/public/http/address-limits.ts';
import { ANSWER_FLOOR_MS } from './transports/public/http/answer-floor.ts';
import { registerPublicSurfaces } from './transports/public/surfaces.ts';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './transports/rest/error-handling.ts';
import { registerJsonBodyParser } from './transports/rest/json-body.ts';
import { buildOpenApiDocument } from './transports/rest/openapi.ts';
import { registerOperationRoutes } from './transports/rest/operation-routes.ts';
import { buildRequestValidator } from './transports/rest/request-validators.ts';
import { buildResponseSerializer } from './transports/rest/response-serializers.ts';

/** The dependencies (src/dependencies.ts: buildDependencies), and how this HTTP app logs and what it serves. */
export interface AppOptions extends Dependencies {
  logger?: FastifyServerOptions['logger'];
  /** Defaults to the full catalog; tests may add operations to exercise the pipeline. */
  operations?: readonly AnyOperation[];
  /** The public writes' ceilings per client address; defaults to ADDRESS_CEILINGS, tests lower them. */
  addressCeilings?: Partial<AddressCeilings>;
  /** The lead-making forms' answer floor; defaults to ANSWER_FLOOR_MS, tests that do not time answers set 0. */
  answerFloorMs?: number;
}
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const everyOperation = options.operations ?? catalog;
  checkCatalog(everyOperation);
  // /v1, MCP and the OpenAPI document offer everything but the dashboard's own actions (DESIGN §10).
  const operations = apiOperations(everyOperation);
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    // Stalled clients are cut off instead of holding sockets forever (OWASP API4): a socket idle for
    // 60 s is closed, and headers must arrive within Node's headersTimeout. There is no deadline for a
    // whole request, because a multi-GiB upload at ordinary speeds takes longer than any fixed limit.
    requestTimeout: 0,
    connectionTimeout: 60_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    // A caller's own request id is kept when it is safe to log; otherwise we make one.
    genReqId: (request) => {
      const sent = request.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : `req_${randomUUID().replaceAll('-', '')}`;
    },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Response serializers: compiled on a route's first answer, once per schema for the process.
    // Request validators (none declared): Fastify's default, loaded only if a route ever needs it.
    schemaController: { compilersFactory: { buildSerializer: buildResponseSerializer, buildValidator: buildRequestValidator } },
  });
  // JSON only: a text/plain body is refused as the wrong Content-Type, not parsed as a string.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  // Async on purpose: a callback hook would go on to the body synchronously, while Node's parser is
  // still inside the same bytes, so a request with a broken chunked body would be answered for its
  // missing Content-Type instead of its body (error-handling.test.ts).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  registerErrorHandling(app);

  const pipeline = createPipeline(pipelineDeps(options, app.log));
  const originOf = createCallOrigins(options.trustedProxies);
  // Written on its first request rather than at start-up: most processes never serve it.
  let openApiDocument: string | undefined;

  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (request, reply) => {
    if (await options.database.ping()) return { status: 'ready' };
    const error = new AppError('service_unavailable', 'The database is not reachable.', undefined, retryAfter());
    return reply.code(error.status).headers(error.headers).send(errorBody(error, request.id));
  });
  // An assistant that only lists tools has used its credential too.
  const recordMcpUse = credentialUseRecorder(options.database.db, app.log);
  const { links, checkUploadToken } = createMediaLinks(options.secret, options.publicUrl);
  await registerPublicSurfaces(app, {
    db: options.database.db,
    secret: options.secret,
    publicUrl: options.publicUrl,
    clock: options.clock,
    answerFloorMs: options.answerFloorMs ?? ANSWER_FLOOR_MS,
    rateLimiter: options.rateLimiter,
    addressLimits: createAddressLimits({
      secret: options.secret,
      trustedProxies: options.trustedProxies,
      ceilings: options.addressCeilings,
    }),
    mediaStore: options.mediaStore,
    mediaDelivery: options.mediaDelivery,
    links,
    checkUploadToken,
    viewingTokens: createViewingTokens(options.secret),
    pipeline,
    operations: new Map(everyOperation.map((operation) => [operation.name, operation])),
    outbound: options.outbound,
  });
  registerMcpRoute(app, {
    operations,
    pipeline,
    identify: (authorization) =>
      authenticate(options.database.findCredential, authorization, options.clock(), recordMcpUse, `${options.publicUrl}/mcp`),
    guidanceFor: (workspaceId) => getAssistantGuidance(options.database.db, workspaceId),
    publicUrl: options.publicUrl,
    originOf,
  });
  await app.register(
    async (v1) => {
      v1.get('/openapi.json', async (_request, reply) => {
        openApiDocument ??= JSON.stringify(buildOpenApiDocument(operations, options.publicUrl));
        return reply.type('application/json').send(openApiDocument);
      });
      registerOperationRoutes(v1, operations, pipeline, originOf);
    },
    { prefix: '/v1' },
  );
  return app;
}
