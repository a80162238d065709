/** The scheduling domain's operations, in catalog order (DESIGN §3). */
import { getSchedulingAvailability } from './operations/get-scheduling-availability.ts';

export const schedulingOperations = [getSchedulingAvailability];
