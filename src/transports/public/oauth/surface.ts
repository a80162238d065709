/**
 * The OAuth surface (issue 29, DESIGN §10 "Connected assistants"): where assistants register as
 * clients (RFC 7591). The authorization and token endpoints, and the metadata that announces them,
 * join it as they are built; until then nothing advertises this surface.
 */
import type { PublicSurface } from '../surface.ts';
import { registerClientRegistrationRoute } from './client-registration-route.ts';

export const oauthSurface: PublicSurface = { name: 'oauth', register: registerClientRegistrationRoute };
