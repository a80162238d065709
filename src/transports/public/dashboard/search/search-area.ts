/** /app/search: one search across videos, transcripts, routes and leads (issue 28). */
import type { FastifyInstance } from 'fastify';
import type { DashboardEnv } from '../kit/page-route.ts';
import { registerSearchPage } from './search-page.ts';

export function registerSearchArea(scope: FastifyInstance, env: DashboardEnv): void {
  registerSearchPage(scope, env);
}
