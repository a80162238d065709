/** The scheduling domain's operations, in catalog order: SPEC's first (DESIGN §3), then the additive ones. */

import { getSchedulingAvailability } from './availability/operations/get-scheduling-availability.ts';
import { getSchedulingOverview } from './availability/operations/get-scheduling-overview.ts';
import { cancelBooking } from './bookings/operations/cancel-booking.ts';
import { createBooking } from './bookings/operations/create-booking.ts';
import { getBooking } from './bookings/operations/get-booking.ts';
import { listBookings } from './bookings/operations/list-bookings.ts';
import { rescheduleBooking } from './bookings/operations/reschedule-booking.ts';
import { createCalendarFeed } from './calendar-feeds/operations/create-calendar-feed.ts';
import { deleteCalendarFeed } from './calendar-feeds/operations/delete-calendar-feed.ts';
import { listCalendarFeeds } from './calendar-feeds/operations/list-calendar-feeds.ts';
import { refreshCalendarFeed } from './calendar-feeds/operations/refresh-calendar-feed.ts';
import { createEventType } from './event-types/operations/create-event-type.ts';
import { getEventType } from './event-types/operations/get-event-type.ts';
import { listEventTypes } from './event-types/operations/list-event-types.ts';
import { updateEventType } from './event-types/operations/update-event-type.ts';

export const schedulingOperations = [
  listBookings,
  getSchedulingOverview,
  getSchedulingAvailability,
  createBooking,
  getBooking,
  cancelBooking,
  rescheduleBooking,
  listEventTypes,
  getEventType,
  createEventType,
  updateEventType,
  listCalendarFeeds,
  createCalendarFeed,
  refreshCalendarFeed,
  deleteCalendarFeed,
];
