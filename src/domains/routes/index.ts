/**
 * The front door of the routes area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */

export { type RouteActivity, routeActivity } from './analytics/route-activity.queries.ts';
export { rebuildRouteCounters } from './analytics/route-counters.ts';
export { routeStats } from './analytics/route-stats.queries.ts';
export { liveRouteIds } from './graph/live-routes.queries.ts';
export { routeCardFacts, routeNames } from './graph/route-facts.queries.ts';
export { findRoute } from './graph/route-graph.queries.ts';
export type { RouteGraph } from './graph/route-graph.ts';
export { routeSearchWords } from './graph/route-words.queries.ts';
export { insertRoute, insertStep, type WiredChoice, wireStep } from './graph/route-writes.queries.ts';
export { currentChoiceIdsByStep } from './graph/step-choices.queries.ts';
export { findPlayerRoute, type PlayableVideo, type PlayerRoute, playerGraph } from './player/route-player.queries.ts';
export { createRouteTokens, type RouteTokens } from './player/route-token.ts';
export type { RouteEvent } from './player/route-visit-plan.ts';
export { completeWithLead, ROUTE_LEAD_FORM, recordRouteEvents } from './player/route-visits.ts';
export { RouteId, RouteStatus } from './routes.schemas.ts';
