/** The scheduling domain's operations, in catalog order (DESIGN §3). */
import { getSchedulingAvailability } from './operations/get-scheduling-availability.ts';
import { getSchedulingOverview } from './operations/get-scheduling-overview.ts';

export const schedulingOperations = [getSchedulingOverview, getSchedulingAvailability];
