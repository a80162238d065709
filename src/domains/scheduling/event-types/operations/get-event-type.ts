/**
 * get_event_type: one event type with its rules, weekly hours, date overrides and booking page link.
 * Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { eventTypeOutput } from '../event-type-fields.ts';
import { findEventType } from '../event-types.queries.ts';
import { EventType, EventTypeId } from '../event-types.schemas.ts';

export const getEventType = defineOperation({
  name: 'get_event_type',
  summary: 'Get an event type',
  description:
    'Returns one event type: duration, slot interval, buffers, notice, horizon, daily cap, value, location, time zone, ' +
    'weekly hours by weekday, date overrides, active, and its public booking_url.',
  method: 'GET',
  path: '/scheduling/event-types/{event_type_id}',
  group: 'Scheduling',
  scope: 'workspace:read',
  entitlement: 'scheduling',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ event_type_id: EventTypeId }, { additionalProperties: false }),
  output: EventType,
  example: { event_type_id: '7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e' },
  handler: async (ctx, input) => eventTypeOutput(await findEventType(ctx.db, ctx.workspaceId, input.event_type_id), ctx.links),
});
