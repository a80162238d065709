/**
 * The dashboard surface (DESIGN §10): pages under /app for people signed in. A thin client of the
 * catalog: every read and write is a catalog operation through the pipeline with the person as the
 * principal. Signed out, every page sends them to /sign-in and back.
 */

import { acceptFormBodies } from '../http/form-body.ts';
import { sessionCookies } from '../http/session-cookie.ts';
import type { PublicSurface } from '../surface.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { registerHomePage } from './home-page.ts';
import { registerLeadPage } from './lead-page.ts';
import { registerPasskeysRoutes } from './passkeys-routes.ts';
import { registerTwoFactorRoutes } from './two-factor-routes.ts';
import { registerVideoPage } from './video-page.ts';
import { registerWorkspaceSwitch } from './workspace-switch.ts';

export const dashboardSurface: PublicSurface = {
  name: 'dashboard',
  async register(app, deps) {
    const cookies = sessionCookies(deps.publicUrl);
    await app.register(async (scope) => {
      acceptFormBodies(scope);
      // A person who types the bare address, or the name other products use, finds the way in.
      scope.get('/', async (_request, reply) => reply.redirect('/app', 302));
      scope.get('/login', async (_request, reply) => reply.redirect('/sign-in', 301));
      registerHomePage(scope, deps, cookies);
      registerWorkspaceSwitch(scope, deps, cookies);
      registerAccountRoutes(scope, deps, cookies);
      registerVideoPage(scope, deps, cookies);
      registerLeadPage(scope, deps, cookies);
      registerPasskeysRoutes(scope, deps, cookies);
      registerTwoFactorRoutes(scope, deps, cookies);
    });
  },
};
