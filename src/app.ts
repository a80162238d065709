/**
 * buildApp: the whole HTTP surface as a Fastify instance that never listens by itself, so tests drive
 * it with inject() or a port of their choosing. Health, readiness and the MCP endpoint live outside
 * /v1; the REST API and its OpenAPI document under it.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { catalog, checkCatalog } from './catalog.ts';
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
import type { MediaStore } from './storage/media-store.ts';
import { registerMcpRoute } from './transports/mcp/route.ts';
import { registerBookingLinks } from './transports/public/booking/booking-links.ts';
import { registerBookingPage } from './transports/public/booking/booking-page.ts';
import { registerChannelPage } from './transports/public/channel/channel-page.ts';
import { registerCollect } from './transports/public/collect/collect.ts';
import { allowMediaFromAnyOrigin } from './transports/public/http/media-cors.ts';
import { allowMediaOrigin } from './transports/public/http/page-parts.ts';
import { registerCaptionsRoute } from './transports/public/media/captions.ts';
import { registerHlsRoutes } from './transports/public/media/hls-media.ts';
import { registerMediaRoutes } from './transports/public/media/media.ts';
import { registerRoutePlayer } from './transports/public/route-player/route-player.ts';
import { registerStripeWebhooks } from './transports/public/stripe/stripe-webhooks.ts';
import { registerUploadTarget } from './transports/public/uploads/upload-target.ts';
import { registerLeadCapture } from './transports/public/watch/lead-capture.ts';
import { registerWatchPages } from './transports/public/watch/watch-pages.ts';
import { answerClientError, answerFrameworkError, registerErrorHandling } from './transports/rest/error-handling.ts';
import { registerJsonBodyParser } from './transports/rest/json-body.ts';
import { buildOpenApiDocument } from './transports/rest/openapi.ts';
import { registerOperationRoutes } from './transports/rest/operation-routes.ts';

/** The dependencies (src/dependencies.ts: buildDependencies), and how this HTTP app logs and what it serves. */
export interface AppOptions extends Dependencies {
  logger?: FastifyServerOptions['logger'];
  /** Defaults to the full catalog; tests may add operations to exercise the pipeline. */
  operations?: readonly AnyOperation[];
}
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const operations = options.operations ?? catalog;
  checkCatalog(operations);
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
  });
  // JSON only: a text/plain body is refused as the wrong Content-Type, not parsed as a string.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  registerErrorHandling(app);

  const pipeline = createPipeline(pipelineDeps(options, app.log));
  const openApiDocument = JSON.stringify(buildOpenApiDocument(operations, options.publicUrl));

  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (request, reply) => {
    if (await options.database.ping()) return { status: 'ready' };
    const error = new AppError('service_unavailable', 'The database is not reachable.', undefined, retryAfter());
    return reply.code(error.status).headers(error.headers).send(errorBody(error, request.id));
  });
  // An assistant that only lists tools has used its credential too.
  const recordMcpUse = credentialUseRecorder(options.database.db, app.log);
  const { links, checkUploadToken } = createMediaLinks(options.secret, options.publicUrl);
  await registerUploadTarget(app, {
    db: options.database.db,
    store: options.mediaStore,
    checkUploadToken,
    clock: options.clock,
  });
  if (options.mediaDelivery.mode === 'redirect') await allowRedirectedMediaInPages(app, options.mediaStore);
  await app.register(async (media) => {
    allowMediaFromAnyOrigin(media);
    registerMediaRoutes(media, { db: options.database.db, store: options.mediaStore, delivery: options.mediaDelivery });
    registerHlsRoutes(media, { db: options.database.db, store: options.mediaStore });
  });
  registerCaptionsRoute(app, { db: options.database.db });
  await registerCollect(app, {
    db: options.database.db,
    viewingTokens: createViewingTokens(options.secret),
    clock: options.clock,
  });
  await registerLeadCapture(app, {
    db: options.database.db,
    viewingTokens: createViewingTokens(options.secret),
    rateLimiter: options.rateLimiter,
    clock: options.clock,
  });
  await registerWatchPages(app, { db: options.database.db, secret: options.secret, clock: options.clock });
  await registerRoutePlayer(app, {
    db: options.database.db,
    secret: options.secret,
    rateLimiter: options.rateLimiter,
    clock: options.clock,
  });
  await registerBookingPage(app, { db: options.database.db, links, rateLimiter: options.rateLimiter, clock: options.clock });
  await registerChannelPage(app, { db: options.database.db, links, clock: options.clock });
  await registerStripeWebhooks(app, { db: options.database.db, secret: options.secret, clock: options.clock });
  await registerBookingLinks(app, { db: options.database.db, links, publicUrl: options.publicUrl, clock: options.clock });
  registerMcpRoute(app, {
    operations,
    pipeline,
    identify: (authorization) => authenticate(options.database.findCredential, authorization, options.clock(), recordMcpUse),
    guidanceFor: (workspaceId) => getAssistantGuidance(options.database.db, workspaceId),
    publicUrl: options.publicUrl,
  });
  await app.register(
    async (v1) => {
      v1.get('/openapi.json', async (_request, reply) => reply.type('application/json').send(openApiDocument));
      registerOperationRoutes(v1, operations, pipeline);
    },
    { prefix: '/v1' },
  );
  return app;
}

/**
 * With redirect delivery, media lands on the object store's origin (the origin of its presigned
 * URLs, presigned once here: signing is local), so every page's Content-Security-Policy names it too.
 */
/** An id no row has: the sample URL only shows where presigned URLs point. */
const NIL_ID = '00000000-0000-4000-8000-000000000000';

async function allowRedirectedMediaInPages(app: FastifyInstance, store: MediaStore): Promise<void> {
  const sample = await store.presignedUrl({ workspaceId: NIL_ID, videoId: NIL_ID, file: 'source' }, 60);
  if (!sample) return;
  const origin = new URL(sample).origin;
  app.addHook('onSend', async (_request, reply, payload) => {
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') reply.header('Content-Security-Policy', allowMediaOrigin(policy, origin));
    return payload;
  });
}
