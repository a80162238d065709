/**
 * create_event_type: a new kind of call viewers can book, with its rules, hours and zone (default the
 * workspace's). Writes the event_types row; emits no event (none is defined for event types). Every
 * problem, of shape, of rules and a name an active event type has, is named in one answer.
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { workspaceTimeZone } from '../../../workspace/index.ts';
import { createdRules, createProblems } from '../event-type-checks.ts';
import { eventTypeOutput, ruleColumns } from '../event-type-fields.ts';
import { findEventType, insertEventType, lockEventTypeNames, storedName } from '../event-types.queries.ts';
import { EventType, EventTypeDuration, EventTypeName, OptionalEventTypeFields } from '../event-types.schemas.ts';

export const createEventType = defineOperation({
  name: 'create_event_type',
  summary: 'Create an event type viewers can book',
  description:
    'Creates a bookable kind of call: duration, slot interval, buffers, notice, horizon, daily cap, value, location, ' +
    'weekly hours (default Mon–Fri 09:00–17:00) and date overrides in time_zone. Answers booking_url.',
  method: 'POST',
  path: '/scheduling/event-types',
  group: 'Scheduling',
  scope: 'workspace:manage',
  entitlement: 'scheduling',
  write: true,
  status: 201,
  errors: [],
  input: Type.Object(
    {
      name: EventTypeName,
      duration_minutes: EventTypeDuration,
      ...OptionalEventTypeFields,
    },
    { additionalProperties: false },
  ),
  async databaseProblems(db, workspaceId, input) {
    return createProblems(db, workspaceId, input, await workspaceTimeZone(db, workspaceId));
  },
  output: EventType,
  example: {
    name: 'Intro call',
    duration_minutes: 30,
    buffer_after_minutes: 10,
    value: { amount: 15000, currency: 'USD' },
    location: 'https://meet.example.com/intro',
    time_zone: 'Europe/Berlin',
    weekly_hours: { monday: [{ start: '09:00', end: '12:00' }], wednesday: [{ start: '13:00', end: '17:00' }] },
  },
  async handler(ctx, input) {
    const { timezone } = await lockEventTypeNames(ctx.db, ctx.workspaceId);
    const problems = await createProblems(ctx.db, ctx.workspaceId, input, timezone);
    if (problems.length > 0) throw AppError.invalid(problems);
    const rules = createdRules(input, timezone);
    const id = await insertEventType(
      ctx.db,
      {
        workspace_id: ctx.workspaceId,
        name: storedName(input.name),
        ...ruleColumns(rules),
        value_amount: input.value?.amount ?? null,
        value_currency: input.value?.currency.toUpperCase() ?? null,
        location: input.location?.trim() ?? null,
        active: input.active ?? true,
      },
      ctx.now,
    );
    return eventTypeOutput(await findEventType(ctx.db, ctx.workspaceId, id), ctx.links);
  },
});
