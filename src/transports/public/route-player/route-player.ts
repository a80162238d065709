/**
 * The public route player (docs/viewer.md, "Route player"), outside /v1 and without a credential:
 * - GET /r/{route_id}: a live route's player page (`?frame=1`: filling a frame, as the channel page
 *   shows it), each render with a new route token (a new visit)
 *   and a viewing token per playable step (each step's viewing goes to POST /collect as its own
 *   session); a paused route a "paused" page; anything else a 404 page; an outage a 503 page.
 * - POST /r/{route_id}/events: the visit's steps, choices and finish (route-visits.ts), readable
 *   from a beacon too; limited per client address.
 * - POST /r/{route_id}/lead: the route's lead form; captures the lead and completes the visit,
 *   limited and answered like POST /leads/capture.
 * - GET /route-player.js: the script (it builds on /player.js's reporting).
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataAccess } from '../../../core/context.ts';
import { AppError } from '../../../core/errors.ts';
import type { RateLimiter } from '../../../core/pipeline/rate-limit.ts';
import { inputProblems, validateInput } from '../../../core/pipeline/validation.ts';
import {
  completeWithLead,
  createRouteTokens,
  findPlayerRoute,
  type PlayerRoute,
  playerGraph,
  recordRouteEvents,
} from '../../../domains/routes/index.ts';
import { createViewingTokens } from '../../../domains/viewing/index.ts';
import { isBot } from '../collect/collect.ts';
import type { AddressLimits } from '../http/address-limits.ts';
import { answerNoSoonerThan } from '../http/answer-floor.ts';
import { acceptBeaconJson } from '../http/beacon-json-body.ts';
import { bodyTooLargeHandler } from '../http/error-reply.ts';
import { answerOutageWithPage, servePageScript } from '../http/page-serving.ts';
import { requireRouteToken } from '../http/viewing-token-check.ts';
import { limitedWrite, type WriteLimit } from '../http/write-limits.ts';
import { CAPTURE_LIMITS, viewerSubmissionLimit } from '../watch/lead-capture.ts';
import { eventShapeProblems, RouteEventsBody, RouteLeadBody } from './route-player-bodies.ts';
import { MISSING_PAGE, PAUSED_PAGE, ROUTE_HEADERS, routePage, UNAVAILABLE_PAGE } from './route-player-page.ts';

const EVENTS_BODY_LIMIT = 16 * 1024;
const LEAD_BODY_LIMIT = 8 * 1024;

export interface RoutePlayerOptions {
  db: DataAccess;
  /** The service secret route and viewing tokens are signed with. */
  secret: string;
  rateLimiter: RateLimiter;
  addressLimits: AddressLimits;
  clock: () => Date;
  /** Milliseconds an accepted form is answered no sooner than (http/answer-floor.ts). */
  answerFloorMs: number;
}

export async function registerRoutePlayer(app: FastifyInstance, options: RoutePlayerOptions): Promise<void> {
  servePageScript(app, '/route-player.js', 'route-player.js');
  await app.register(async (pages) => {
    pages.setErrorHandler(answerOutageWithPage(() => ({ headers: ROUTE_HEADERS.notice, body: UNAVAILABLE_PAGE })));
    // A wildcard rather than :route_id, so that any malformed id, an over-long one too, gets the page.
    pages.get('/r/*', (request, reply) => renderRoute(options, request, reply));
  });
  await app.register(async (events) => {
    acceptBeaconJson(events, EVENTS_BODY_LIMIT);
    events.setErrorHandler(bodyTooLargeHandler('A batch of route events', EVENTS_BODY_LIMIT));
    events.post('/r/:route_id/events', { bodyLimit: EVENTS_BODY_LIMIT }, (request, reply) => postEvents(options, request, reply));
  });
  await app.register(async (lead) => {
    lead.setErrorHandler(bodyTooLargeHandler('A form submission', LEAD_BODY_LIMIT));
    lead.post('/r/:route_id/lead', { bodyLimit: LEAD_BODY_LIMIT }, (request, reply) => postLead(options, request, reply));
  });
}

async function renderRoute(options: RoutePlayerOptions, request: FastifyRequest, reply: FastifyReply) {
  const routeId = (request.params as { '*': string })['*'];
  const route = await findPlayerRoute(options.db, routeId);
  if (route?.status === 'paused') return reply.code(200).headers(ROUTE_HEADERS.notice).send(PAUSED_PAGE);
  if (route?.status !== 'live') return reply.code(404).headers(ROUTE_HEADERS.notice).send(MISSING_PAGE);
  const { graph, playable } = await playerGraph(options.db, route);
  const now = options.clock();
  const viewing = createViewingTokens(options.secret);
  const stepTokens = new Map(
    graph.steps.filter((step) => playable.has(step.video.id)).map((step) => [step.id, viewing.issue(step.video.id, now).token]),
  );
  const { token } = createRouteTokens(options.secret).issue(route.id, now);
  return reply
    .code(200)
    .headers(ROUTE_HEADERS.found)
    .send(routePage(route, token, graph, playable, stepTokens, (request.query as { frame?: unknown }).frame === '1'));
}

/** The route the request's token was issued for, still there and public (live, or paused since the page was shown). */
async function tokenRoute(options: RoutePlayerOptions, request: FastifyRequest, token: string, now: Date) {
  const routeId = (request.params as { route_id: string }).route_id;
  const checked = requireRouteToken(createRouteTokens(options.secret), token, now, routeId);
  const route = await findPlayerRoute(options.db, routeId);
  if (!route || (route.status !== 'live' && route.status !== 'paused')) throw new AppError('not_found', 'This route is not available.');
  return { route, visitId: checked.visitId };
}

async function postEvents(options: RoutePlayerOptions, request: FastifyRequest, reply: FastifyReply) {
  // Crawlers that run scripts would otherwise start visits; /collect drops them the same way.
  if (isBot(request.headers['user-agent'])) return reply.code(204).send();
  const shape = inputProblems(RouteEventsBody, request.body, 'json');
  const reported = new Set(shape.map((problem) => problem.field));
  const problems = [...shape, ...eventShapeProblems(request.body).filter((problem) => !reported.has(problem.field))];
  if (problems.length > 0) throw AppError.invalid(problems);
  const body = request.body as RouteEventsBody;
  const now = options.clock();
  const { route, visitId } = await tokenRoute(options, request, body.token, now);
  await limitedWrite(options.rateLimiter, [options.addressLimits.of(request, 'route_events')], () =>
    recordRouteEvents(options.db, {
      workspaceId: route.workspaceId,
      routeId: route.id,
      visitId,
      viewerId: body.viewer_id,
      events: body.events.map((event) =>
        event.type === 'choice'
          ? { type: 'choice', index: event.index, step_id: event.step_id, choice_id: event.choice_id as string }
          : { type: event.type, index: event.index, step_id: event.step_id },
      ),
      now,
    }),
  );
  return reply.code(200).header('Cache-Control', 'no-store').send({ accepted: true });
}

async function postLead(options: RoutePlayerOptions, request: FastifyRequest, reply: FastifyReply) {
  const arrived = performance.now();
  const body = validateInput<RouteLeadBody>(RouteLeadBody, request.body, 'json');
  const now = options.clock();
  const { route, visitId } = await tokenRoute(options, request, body.token, now);
  // The watch page form's limits: per address and per browser, which both forms share, and per page
  // view (here the visit).
  const limits: WriteLimit[] = [
    options.addressLimits.of(request, 'lead_forms'),
    { bucket: `route-lead:visit:${visitId}`, limit: CAPTURE_LIMITS.perToken, tooMany: 'submissions' },
    viewerSubmissionLimit(body.viewer_id),
  ];
  const { token: _token, viewer_id, index, step_id, ...fields } = body;
  await limitedWrite(options.rateLimiter, limits, () =>
    completeWithLead(options.db, { ...visitOf(route, visitId, viewer_id, now), index, stepId: step_id, fields }),
  );
  // As on the watch page: the same answer, no sooner, whether the email was a lead already or not.
  await answerNoSoonerThan(arrived, options.answerFloorMs);
  return reply.code(202).header('Cache-Control', 'no-store').send({ ok: true });
}

function visitOf(route: PlayerRoute, visitId: string, viewerId: string, now: Date) {
  return { workspaceId: route.workspaceId, routeId: route.id, visitId, viewerId, now };
}
