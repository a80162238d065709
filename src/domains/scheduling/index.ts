/**
 * The front door of the scheduling area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { slotsInWindow } from './availability/availability.ts';
export { rulesOf } from './availability/event-type-rules.ts';
export { offeredSlots } from './availability/offered-slots.ts';
export { schedulingRulesProblems } from './availability/rules-problems.ts';
export { requireSchedulable } from './availability/schedulable-instants.ts';
export type { DateOverride, HoursInterval, WeeklyHours } from './availability/scheduling-rules.ts';
export { loadSlotContext } from './availability/slot-context.queries.ts';
export { zonedIso } from './availability/zoned-time.ts';
export { bookingCalendarFile } from './bookings/booking-calendar-file.ts';
export { type InviteeBooking, inviteeBooking } from './bookings/invitee-booking.queries.ts';
export { eraseBookingInvitee } from './bookings/invitee-erasure.queries.ts';
export {
  CALENDAR_FEED_FETCH_JOB,
  FEED_FETCH_ATTEMPTS,
  FEED_REFRESH_MS,
  queueFeedFetch,
  requeueStrandedFeeds,
} from './calendar-feeds/calendar-feed-jobs.ts';
export { CALENDAR_FEED_URL_PURPOSE } from './calendar-feeds/calendar-feed-url.ts';
export { FeedReadError, type FeedWindow } from './calendar-feeds/ics-busy-times.ts';
export { readBusyTimes } from './calendar-feeds/ics-reader.ts';
export { eventTypeStates } from './event-types/event-type-states.queries.ts';
export { eventTypesWithIds, workspaceEventTypes } from './event-types/workspace-event-types.queries.ts';

// Then the files that reach other areas.
export { bookSlot } from './bookings/book-slot.ts';
export { ownBookingSources } from './bookings/booking-sources.queries.ts';
export { cancelBooking, rescheduleBooking } from './bookings/booking-changes.ts';
export { type FeedIds, feedToFetch, recordFeedFailure, storeFeedBusyTimes } from './calendar-feeds/calendar-busy-times.queries.ts';
export { type BookableEventType, findBookableEventType } from './event-types/bookable-event-types.queries.ts';
export { findEventType, insertEventType } from './event-types/event-types.queries.ts';
