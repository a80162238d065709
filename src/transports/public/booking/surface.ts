/** The booking surface: the booking page and its form, and the invitee's calendar file and cancel links. */
import type { PublicSurface } from '../surface.ts';
import { registerBookingLinks } from './booking-links.ts';
import { registerBookingPage } from './booking-page.ts';

export const bookingSurface: PublicSurface = {
  name: 'booking',
  async register(app, deps) {
    await registerBookingPage(app, deps);
    await registerBookingLinks(app, deps);
  },
};
