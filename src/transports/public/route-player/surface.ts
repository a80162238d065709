/** The route player surface: GET /r/{route_id}, its script, its events and its lead form. */
import type { PublicSurface } from '../surface.ts';
import { registerRoutePlayer } from './route-player.ts';

export const routePlayerSurface: PublicSurface = { name: 'route-player', register: registerRoutePlayer };
