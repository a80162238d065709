/** Routes: the list with each route's completion, a route's page (graph, numbers, editing) and each step's choices. */
import type { FastifyInstance } from 'fastify';
import type { DashboardEnv } from '../kit/page-route.ts';
import { dashboardGet } from '../kit/page-route.ts';
import { registerRouteListPage } from './route-list-page.ts';
import { routePage } from './route-page.ts';
import { registerRouteWrites } from './route-writes.ts';
import { registerStepPage } from './step-page.ts';

export function registerRoutesArea(scope: FastifyInstance, env: DashboardEnv): void {
  registerRouteListPage(scope, env);
  dashboardGet(scope, env, '/app/routes/:route_id', (ctx) => routePage(ctx, (ctx.request.params as { route_id: string }).route_id));
  registerRouteWrites(scope, env);
  registerStepPage(scope, env);
}
