/** /app, the workspace at a glance. */
import type { FastifyInstance } from 'fastify';
import type { DashboardEnv } from '../kit/page-route.ts';
import { registerHomePage } from './home-page.ts';

export function registerHomeArea(scope: FastifyInstance, { deps, cookies }: DashboardEnv): void {
  registerHomePage(scope, { deps, cookies });
}
