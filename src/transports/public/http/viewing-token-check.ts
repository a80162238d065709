/**
 * The page's viewing token, checked the way every endpoint the player calls checks it: the video and
 * page view it names, or `403 forbidden` saying whether reloading the page would help.
 */
import { AppError } from '../../../core/errors.ts';
import type { RouteTokens } from '../../../domains/routes/index.ts';
import type { ViewingTokens } from '../../../domains/viewing/index.ts';

export function requireViewingToken(tokens: ViewingTokens, token: string, now: Date): { videoId: string; sessionId: string } {
  const checked = tokens.check(token, now);
  if (checked.ok) return { videoId: checked.videoId, sessionId: checked.sessionId };
  throw new AppError(
    'forbidden',
    checked.reason === 'expired' ? 'The viewing token has expired; reload the page.' : 'The viewing token is not valid.',
  );
}

/**
 * The route player's token, checked the same way, for the route in the request's path: a token
 * issued for another route is refused like a tampered one.
 */
export function requireRouteToken(tokens: RouteTokens, token: string, now: Date, routeId: string): { routeId: string; visitId: string } {
  const checked = tokens.check(token, now);
  if (checked.ok && checked.routeId === routeId.toLowerCase()) return { routeId: checked.routeId, visitId: checked.visitId };
  if (checked.ok) throw new AppError('forbidden', 'The route token is for another route; reload the page.');
  throw new AppError(
    'forbidden',
    checked.reason === 'expired' ? 'The route token has expired; reload the page.' : 'The route token is not valid.',
  );
}
