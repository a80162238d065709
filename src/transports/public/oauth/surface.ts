/**
 * The OAuth surface (issue 29, DESIGN §10 "Connected assistants"): where assistants register as
 * clients (RFC 7591) and send people to allow them (the consent page). The token endpoint, and the
 * metadata that announces them, join it as they are built; until then nothing advertises this surface.
 */
import { acceptFormBodies } from '../http/form-body.ts';
import { sessionCookies } from '../http/session-cookie.ts';
import type { PublicSurface } from '../surface.ts';
import { registerAuthorizationRoutes } from './authorization-routes.ts';
import { registerClientRegistrationRoute } from './client-registration-route.ts';

export const oauthSurface: PublicSurface = {
  name: 'oauth',
  async register(app, deps) {
    await registerClientRegistrationRoute(app, deps);
    const cookies = sessionCookies(deps.publicUrl);
    await app.register(async (scope) => {
      acceptFormBodies(scope);
      registerAuthorizationRoutes(scope, deps, cookies);
    });
  },
};
