/**
 * The front door of the routes area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { type RouteActivity, routeActivity } from './analytics/route-activity.queries.ts';
export { rebuildRouteCounters } from './analytics/route-counters.ts';
export { routeStats } from './analytics/route-stats.queries.ts';
export { liveRouteIds } from './graph/live-routes.queries.ts';
export type { RouteGraph } from './graph/route-graph.ts';
export { routeSearchWords } from './graph/route-words.queries.ts';
export { insertRoute, insertStep, type WiredChoice, wireStep } from './graph/route-writes.queries.ts';
export { currentChoiceIdsByStep } from './graph/step-choices.queries.ts';
export type { RouteEvent } from './player/route-visit-plan.ts';
export { forgetRouteVisitor } from './player/visitor-erasure.queries.ts';
export { RouteId, RouteStatus } from './routes.schemas.ts';

// Then the files that reach other areas.
export { hasRoute, routeCardFacts, routeNames } from './graph/route-facts.queries.ts';
export { findRoute } from './graph/route-graph.queries.ts';
export { type RouteRepair, removeVideoFromRoutes, routesOnlyOfVideo } from './graph/video-removal.queries.ts';
export { browserRouteChoices } from './player/browser-route-choices.queries.ts';
export { findPlayerRoute, type PlayableVideo, playerGraph, type PlayerRoute } from './player/route-player.queries.ts';
export { createRouteTokens, type RouteTokens } from './player/route-token.ts';
export { completeWithLead, recordRouteEvents, ROUTE_LEAD_FORM } from './player/route-visits.ts';
