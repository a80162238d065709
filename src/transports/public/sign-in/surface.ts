/**
 * The sign-in surface (issue 27): /sign-in (a password and its second factor, or a passkey), /sign-out,
 * invitation links, emailed sign-in links and email-change confirmations, the pages a person meets
 * before the dashboard. Form bodies (and JSON for the passkey ceremony); every state-changing request
 * is checked for its origin, and those of a signed-in person for their session's CSRF token too.
 */

import { acceptFormBodies } from '../http/form-body.ts';
import { sessionCookies } from '../http/session-cookie.ts';
import type { PublicSurface } from '../surface.ts';
import { registerInvitationRoutes } from './invitation-routes.ts';
import { registerPasskeySignInRoutes } from './passkey-sign-in-routes.ts';
import { registerSecondFactorRoutes } from './second-factor-routes.ts';
import { registerSignInLinkRoutes } from './sign-in-link-routes.ts';
import { registerSignInRoutes } from './sign-in-routes.ts';

export const signInSurface: PublicSurface = {
  name: 'sign-in',
  async register(app, deps) {
    const cookies = sessionCookies(deps.publicUrl);
    await app.register(async (scope) => {
      acceptFormBodies(scope);
      registerSignInRoutes(scope, deps, cookies);
      registerInvitationRoutes(scope, deps, cookies);
      registerSignInLinkRoutes(scope, deps, cookies);
      registerSecondFactorRoutes(scope, deps, cookies);
      registerPasskeySignInRoutes(scope, deps, cookies);
    });
  },
};
