/** The watch surface: watch and embed pages, their scripts, and their lead form (POST /leads/capture). */
import type { PublicSurface } from '../surface.ts';
import { registerLeadCapture } from './lead-capture.ts';
import { registerWatchPages } from './watch-pages.ts';

export const watchSurface: PublicSurface = {
  name: 'watch',
  async register(app, deps) {
    await registerLeadCapture(app, deps);
    await registerWatchPages(app, deps);
  },
};
