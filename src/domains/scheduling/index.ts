/** The scheduling domain's operations, in catalog order: SPEC's first (DESIGN §3), then the additive ones. */
import { cancelBooking } from './operations/cancel-booking.ts';
import { createBooking } from './operations/create-booking.ts';
import { createCalendarFeed } from './operations/create-calendar-feed.ts';
import { createEventType } from './operations/create-event-type.ts';
import { deleteCalendarFeed } from './operations/delete-calendar-feed.ts';
import { getBooking } from './operations/get-booking.ts';
import { getEventType } from './operations/get-event-type.ts';
import { getSchedulingAvailability } from './operations/get-scheduling-availability.ts';
import { getSchedulingOverview } from './operations/get-scheduling-overview.ts';
import { listBookings } from './operations/list-bookings.ts';
import { listCalendarFeeds } from './operations/list-calendar-feeds.ts';
import { listEventTypes } from './operations/list-event-types.ts';
import { refreshCalendarFeed } from './operations/refresh-calendar-feed.ts';
import { rescheduleBooking } from './operations/reschedule-booking.ts';
import { updateEventType } from './operations/update-event-type.ts';

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
