/** The scheduling domain's operations, in catalog order (DESIGN §3). */
import { createBooking } from './operations/create-booking.ts';

export const schedulingOperations = [createBooking];
