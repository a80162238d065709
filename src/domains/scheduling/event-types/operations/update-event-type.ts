/**
 * update_event_type: changes any of an event type's fields; weekly_hours and date_overrides, when
 * sent, replace the current ones whole. `active: false` retires it (there is no delete: bookings and
 * route choices point at it). Writes the row and its updated_at when something changed; emits no
 * event (none is defined for event types). Bookings already made keep their times and buffers.
 */
import { Type } from 'typebox';
import { AppError } from '../../../../core/errors.ts';
import { defineOperation } from '../../../../core/operation.ts';
import type { EventTypeRow } from '../../../../db/tables/index.ts';
import { rulesOf } from '../../availability/event-type-rules.ts';
import { patchedEventType, updateProblems } from '../event-type-checks.ts';
import { eventTypeOutput, ruleColumns, rulesFromInput } from '../event-type-fields.ts';
import { findEventType, lockEventType, lockEventTypeNames, storedName, updateEventTypeRow } from '../event-types.queries.ts';
import { EventType, EventTypeDuration, EventTypeId, EventTypeName, OptionalEventTypeFields } from '../event-types.schemas.ts';

export const updateEventType = defineOperation({
  name: 'update_event_type',
  summary: 'Change or deactivate an event type',
  description:
    'Changes the fields sent and keeps the others; weekly_hours and date_overrides replace the current ones whole. ' +
    'active=false stops offering it (no delete). Bookings made keep their times.',
  method: 'PATCH',
  path: '/scheduling/event-types/{event_type_id}',
  group: 'Scheduling',
  scope: 'workspace:manage',
  entitlement: 'scheduling',
  write: true,
  errors: ['not_found'],
  input: Type.Object(
    {
      event_type_id: EventTypeId,
      name: Type.Optional(EventTypeName),
      duration_minutes: Type.Optional(EventTypeDuration),
      ...OptionalEventTypeFields,
    },
    { additionalProperties: false },
  ),
  async databaseProblems(db, workspaceId, input) {
    const current = await patchedEventType(db, workspaceId, input);
    return current ? updateProblems(db, workspaceId, input, current) : [];
  },
  output: EventType,
  example: {
    event_type_id: '7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    daily_cap: 4,
    date_overrides: [{ date: '2026-12-24', hours: [] }],
  },
  async handler(ctx, input) {
    await lockEventTypeNames(ctx.db, ctx.workspaceId);
    const current = await lockEventType(ctx.db, ctx.workspaceId, input.event_type_id);
    const problems = await updateProblems(ctx.db, ctx.workspaceId, input, current);
    if (problems.length > 0) throw AppError.invalid(problems);
    const before = { ...ruleColumns(rulesOf(current)), ...otherColumns(current) };
    const after = {
      ...ruleColumns(rulesFromInput(input, rulesOf(current))),
      ...otherColumns({
        name: input.name !== undefined ? storedName(input.name) : current.name,
        value_amount: input.value === undefined ? current.value_amount : (input.value?.amount ?? null),
        value_currency: input.value === undefined ? current.value_currency : (input.value?.currency.toUpperCase() ?? null),
        location: input.location === undefined ? current.location : (input.location?.trim() ?? null),
        active: input.active ?? current.active,
      }),
    };
    const changes = Object.fromEntries(
      Object.entries(after).filter(([column, value]) => JSON.stringify(value) !== JSON.stringify(before[column as keyof typeof before])),
    );
    if (Object.keys(changes).length > 0) {
      await updateEventTypeRow(ctx.db, ctx.workspaceId, current.id, { ...changes, updated_at: ctx.now });
    }
    return eventTypeOutput(await findEventType(ctx.db, ctx.workspaceId, current.id), ctx.links);
  },
});

type OtherColumns = Pick<EventTypeRow, 'name' | 'value_amount' | 'value_currency' | 'location' | 'active'>;

/** The columns that are no scheduling rule, compared as they are. */
function otherColumns(row: OtherColumns): OtherColumns {
  return { name: row.name, value_amount: row.value_amount, value_currency: row.value_currency, location: row.location, active: row.active };
}
