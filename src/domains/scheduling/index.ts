/** The scheduling domain's operations, in catalog order. */
import { createEventType } from './operations/create-event-type.ts';
import { getEventType } from './operations/get-event-type.ts';
import { listEventTypes } from './operations/list-event-types.ts';
import { updateEventType } from './operations/update-event-type.ts';

export const schedulingOperations = [listEventTypes, getEventType, createEventType, updateEventType];
