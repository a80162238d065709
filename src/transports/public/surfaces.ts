/**
 * Every public surface, registered in this order: the side of the service that viewers, invitees,
 * uploaders and Stripe reach without an API key. Adding one = a folder with a `surface.ts`, and one
 * line here. (The order matters once: the media surface adds the redirect CSP hook every page needs
 * before the pages are registered.)
 */
import type { FastifyInstance } from 'fastify';
import { bookingSurface } from './booking/surface.ts';
import { channelSurface } from './channel/surface.ts';
import { collectSurface } from './collect/surface.ts';
import { dashboardSurface } from './dashboard/surface.ts';
import { mediaSurface } from './media/surface.ts';
import { oauthSurface } from './oauth/surface.ts';
import { routePlayerSurface } from './route-player/surface.ts';
import { signInSurface } from './sign-in/surface.ts';
import { stripeSurface } from './stripe/surface.ts';
import type { PublicSurface, PublicSurfaceDeps } from './surface.ts';
import { uploadsSurface } from './uploads/surface.ts';
import { watchSurface } from './watch/surface.ts';

export const PUBLIC_SURFACES: readonly PublicSurface[] = [
  uploadsSurface,
  mediaSurface,
  collectSurface,
  watchSurface,
  routePlayerSurface,
  bookingSurface,
  channelSurface,
  stripeSurface,
  signInSurface,
  dashboardSurface,
  oauthSurface,
];

export async function registerPublicSurfaces(app: FastifyInstance, deps: PublicSurfaceDeps): Promise<void> {
  for (const surface of PUBLIC_SURFACES) await surface.register(app, deps);
}
