/**
 * The page's viewing token, checked the way every endpoint the player calls checks it: the video and
 * page view it names, or `403 forbidden` saying whether reloading the page would help.
 */
import { AppError } from '../core/errors.ts';
import type { ViewingTokens } from '../domains/viewing/viewing-token.ts';

export function requireViewingToken(tokens: ViewingTokens, token: string, now: Date): { videoId: string; sessionId: string } {
  const checked = tokens.check(token, now);
  if (checked.ok) return { videoId: checked.videoId, sessionId: checked.sessionId };
  throw new AppError(
    'forbidden',
    checked.reason === 'expired' ? 'The viewing token has expired; reload the page.' : 'The viewing token is not valid.',
  );
}
