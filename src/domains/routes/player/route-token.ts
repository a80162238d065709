/**
 * The route token a render of the route player carries (GET /r/{route_id}): the route, a fresh
 * visit id (one per page view, the id of the route_visits row its first step creates) and an expiry
 * a day later, signed like viewing tokens under their own purpose (viewing-token.ts), so neither
 * passes for the other. POST /r/{route_id}/events and /lead accept only a valid one.
 */
import { createPageTokens } from '../../viewing/index.ts';

export type RouteTokenCheck = { ok: true; routeId: string; visitId: string } | { ok: false; reason: 'invalid' | 'expired' };

export function createRouteTokens(secret: string) {
  const tokens = createPageTokens(secret, 'route');
  return {
    /** A token for one page view of the route, with the visit id it binds. */
    issue(routeId: string, now: Date): { token: string; visitId: string; expiresAt: Date } {
      const { token, pageId, expiresAt } = tokens.issue(routeId, now);
      return { token, visitId: pageId, expiresAt };
    },
    check(token: string, now: Date): RouteTokenCheck {
      const checked = tokens.check(token, now);
      return checked.ok ? { ok: true, routeId: checked.subjectId, visitId: checked.pageId } : checked;
    },
  };
}

export type RouteTokens = ReturnType<typeof createRouteTokens>;
