/** Channel: the public page's heading, featured item and grid, edited beside a live preview of it. */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardGet } from '../kit/page-route.ts';
import { channelPage } from './channel-page.ts';
import { registerChannelWrites } from './channel-writes.ts';

export function registerChannelArea(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/channel', (ctx) => channelPage(ctx));
  registerChannelWrites(scope, env);
}
