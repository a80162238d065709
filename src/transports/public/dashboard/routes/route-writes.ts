/**
 * The route page's forms: rename and change status (update_route), add a step (add_route_step). Each
 * redirects back with a notice, or shows the route page again with the API's problems beside the field.
 */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { problemsOf } from './field-problems.ts';
import { routePage } from './route-page.ts';
import type { RouteDetail } from './route-types.ts';

type Params = { route_id: string };

async function afterWrite(ctx: PageContext, answer: Awaited<ReturnType<PageContext['call']>>, done: string) {
  const { route_id: routeId } = ctx.request.params as Params;
  if (answer.ok) return ctx.redirect(`/app/routes/${encodeURIComponent(routeId)}?done=${done}`);
  // A 404 naming a field (a video id no longer there) is a problem of the form, not a missing route.
  if (answer.status === 400 || (answer.status === 404 && answer.error.details))
    return routePage(ctx, routeId, problemsOf(answer), answer.status);
  return ctx.refused(answer);
}

export function registerRouteWrites(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardPost(scope, env, '/app/routes/:route_id/name', async (ctx) => {
    const { route_id: routeId } = ctx.request.params as Params;
    return afterWrite(ctx, await ctx.call<RouteDetail>('update_route', { route_id: routeId, name: ctx.form.name ?? '' }), 'renamed');
  });
  dashboardPost(scope, env, '/app/routes/:route_id/status', async (ctx) => {
    const { route_id: routeId } = ctx.request.params as Params;
    const status = ctx.form.status ?? '';
    return afterWrite(ctx, await ctx.call<RouteDetail>('update_route', { route_id: routeId, status }), status);
  });
  dashboardPost(scope, env, '/app/routes/:route_id/steps', async (ctx) => {
    const { route_id: routeId } = ctx.request.params as Params;
    return afterWrite(ctx, await ctx.call<RouteDetail>('add_route_step', { route_id: routeId, video: ctx.form.video ?? '' }), 'step');
  });
}
