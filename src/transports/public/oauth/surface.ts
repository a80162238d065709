/**
 * The OAuth surface (issue 29, DESIGN §10 "Connected assistants"): Cuepoint as the authorization
 * server of its MCP endpoint. Its metadata (RFC 8414), client registration (RFC 7591), the consent
 * page (/oauth/authorize), the token endpoint and revocation (RFC 7009).
 */
import { acceptFormBodies } from '../http/form-body.ts';
import { sessionCookies } from '../http/session-cookie.ts';
import type { PublicSurface } from '../surface.ts';
import { registerAuthorizationRoutes } from './authorization-routes.ts';
import { registerClientRegistrationRoute } from './client-registration-route.ts';
import { registerMetadataRoute } from './metadata-route.ts';
import { registerTokenRoutes } from './token-routes.ts';

export const oauthSurface: PublicSurface = {
  name: 'oauth',
  async register(app, deps) {
    registerMetadataRoute(app, deps);
    await registerClientRegistrationRoute(app, deps);
    await registerTokenRoutes(app, deps);
    const cookies = sessionCookies(deps.publicUrl);
    await app.register(async (scope) => {
      acceptFormBodies(scope);
      registerAuthorizationRoutes(scope, deps, cookies);
    });
  },
};
