/**
 * The two fields every request of the player carries (POST /collect, POST /leads/capture): the
 * page's viewing token, which names the video and the page view, and the browser's viewer id.
 * Declared once so both endpoints accept and refuse them alike.
 */
import { Type } from 'typebox';
import { describedPattern } from '../../core/schemas.ts';

export const ViewingTokenField = Type.String({ minLength: 1, maxLength: 200, description: 'The viewing token of the page.' });

export const ViewerIdField = Type.String({
  ...describedPattern('^[A-Za-z0-9_-]{16,64}$', 'must be 16 to 64 letters, digits, hyphens or underscores'),
  description: 'The anonymous first-party viewer id the player keeps.',
});
