/** Revenue: the ledger with its totals, chart and attribution, recording an outcome, the Stripe connection. */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardGet } from '../kit/page-route.ts';
import { registerRecordOutcome } from './record-outcome-page.ts';
import { renderRevenue } from './revenue-page.ts';
import { registerStripeForm } from './stripe-connection.ts';

export function registerRevenueArea(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/revenue', (ctx) => renderRevenue(ctx));
  registerRecordOutcome(scope, env);
  registerStripeForm(scope, env, renderRevenue);
}
