/** Scheduling: event types with their hours on a calendar, the availability explainer, bookings and calendar feeds. */
import type { FastifyInstance } from 'fastify';
import { type DashboardEnv, dashboardGet } from '../kit/page-route.ts';
import { availabilityPage } from './availability-page.ts';
import { registerBookingRoutes } from './booking-page.ts';
import { bookingsPage } from './bookings-page.ts';
import { registerCalendarRoutes } from './calendars-page.ts';
import { registerDateOverrideRoutes } from './date-override-routes.ts';
import { registerEventTypeRoutes } from './event-type-routes.ts';
import { eventTypesPage } from './event-types-page.ts';

export function registerSchedulingArea(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/scheduling', eventTypesPage);
  registerEventTypeRoutes(scope, env);
  registerDateOverrideRoutes(scope, env);
  dashboardGet(scope, env, '/app/scheduling/availability', availabilityPage);
  dashboardGet(scope, env, '/app/scheduling/bookings', bookingsPage);
  registerBookingRoutes(scope, env);
  registerCalendarRoutes(scope, env);
}
