/** The scheduling domain's operations, in catalog order (DESIGN §3). */
import { cancelBooking } from './operations/cancel-booking.ts';
import { createBooking } from './operations/create-booking.ts';
import { getBooking } from './operations/get-booking.ts';
import { listBookings } from './operations/list-bookings.ts';
import { rescheduleBooking } from './operations/reschedule-booking.ts';

export const schedulingOperations = [listBookings, getBooking, createBooking, cancelBooking, rescheduleBooking];
