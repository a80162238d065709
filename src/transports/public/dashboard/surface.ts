/**
 * The dashboard surface (DESIGN §10): pages under /app for people signed in. A thin client of the
 * catalog: every read and write is a catalog operation through the pipeline with the person as the
 * principal (kit/page-route.ts). Signed out, every page sends them to /sign-in and back.
 */

import { acceptFormBodies } from '../http/form-body.ts';
import { sessionCookies } from '../http/session-cookie.ts';
import type { PublicSurface } from '../surface.ts';
import { DASHBOARD_AREAS } from './areas.ts';
import { serveDashboardAssets } from './frame/dashboard-assets.ts';
import { registerWorkspaceSwitch } from './frame/workspace-switch.ts';

export const dashboardSurface: PublicSurface = {
  name: 'dashboard',
  async register(app, deps) {
    const cookies = sessionCookies(deps.publicUrl);
    await app.register(async (scope) => {
      acceptFormBodies(scope);
      // A person who types the bare address, or the name other products use, finds the way in.
      scope.get('/', async (_request, reply) => reply.redirect('/app', 302));
      scope.get('/login', async (_request, reply) => reply.redirect('/sign-in', 301));
      serveDashboardAssets(scope);
      registerWorkspaceSwitch(scope, deps, cookies);
      for (const register of DASHBOARD_AREAS) register(scope, { deps, cookies });
    });
  },
};
