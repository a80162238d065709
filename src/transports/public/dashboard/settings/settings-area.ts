/**
 * /app/settings (issue 28): the workspace's settings, plan and usage for everyone who can read them;
 * members, API keys, connected assistants, webhooks, the email outbox and the audit log for owners and
 * admins (workspace:manage).
 */
import type { FastifyInstance } from 'fastify';
import type { DashboardEnv } from '../kit/page-route.ts';
import { registerApiKeysSettings } from './api-keys-routes.ts';
import { registerAssistantsSettings } from './assistants-routes.ts';
import { registerAuditSettings } from './audit-routes.ts';
import { registerEmailSettings } from './emails-routes.ts';
import { registerMembersSettings } from './members-routes.ts';
import { registerWebhooksSettings } from './webhooks-routes.ts';
import { registerWorkspaceSettings } from './workspace-routes.ts';

export function registerSettingsArea(scope: FastifyInstance, env: DashboardEnv): void {
  registerWorkspaceSettings(scope, env);
  registerMembersSettings(scope, env);
  registerApiKeysSettings(scope, env);
  registerAssistantsSettings(scope, env);
  registerWebhooksSettings(scope, env);
  registerEmailSettings(scope, env);
  registerAuditSettings(scope, env);
}
