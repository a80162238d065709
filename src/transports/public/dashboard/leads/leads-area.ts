/** Leads: the inbox, each lead's page and its forms. */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardGet } from '../kit/page-route.ts';
import { registerLeadForms } from './lead-forms.ts';
import { renderLead } from './lead-page.ts';
import { registerLeadsInbox } from './leads-inbox-page.ts';

export function registerLeadsArea(scope: FastifyInstance, env: DashboardEnv): void {
  registerLeadsInbox(scope, env);
  dashboardGet(scope, env, '/app/leads/:lead_id', (ctx) => renderLead(ctx, (ctx.request.params as { lead_id: string }).lead_id));
  registerLeadForms(scope, env);
}
