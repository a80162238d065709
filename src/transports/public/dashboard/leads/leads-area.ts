/** Leads: the inbox and each lead's page. */
import type { FastifyInstance } from 'fastify';
import type { DashboardEnv } from '../kit/page-route.ts';
import { registerLeadPage } from './lead-page.ts';

export function registerLeadsArea(scope: FastifyInstance, { deps, cookies }: DashboardEnv): void {
  registerLeadPage(scope, deps, cookies);
}
