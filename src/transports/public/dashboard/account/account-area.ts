/** The person's own pages: /app/account (name, email, password, sessions), passkeys and two-factor. */
import type { FastifyInstance } from 'fastify';
import type { DashboardEnv } from '../kit/page-route.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { registerPasskeysRoutes } from './passkeys-routes.ts';
import { registerTwoFactorRoutes } from './two-factor-routes.ts';

export function registerAccountArea(scope: FastifyInstance, { deps, cookies }: DashboardEnv): void {
  registerAccountRoutes(scope, deps, cookies);
  registerPasskeysRoutes(scope, deps, cookies);
  registerTwoFactorRoutes(scope, deps, cookies);
}
