/**
 * list_event_types: the workspace's event types, newest first, optionally only the active (or the
 * inactive) ones, each whole. Reads only.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../../core/lists/pagination.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { eventTypeOutput } from '../event-type-fields.ts';
import { listEventTypeRows } from '../event-types.queries.ts';
import { EventType } from '../event-types.schemas.ts';

export const listEventTypes = defineOperation({
  name: 'list_event_types',
  summary: 'List event types',
  description:
    'Lists the event types viewers can book, newest first, each with its rules, hours and booking_url. ' +
    'active=true or false keeps only active or inactive ones; default both.',
  method: 'GET',
  path: '/scheduling/event-types',
  group: 'Scheduling',
  scope: 'workspace:read',
  entitlement: 'scheduling',
  write: false,
  errors: [],
  input: Type.Object(
    { active: Type.Optional(Type.Boolean({ description: 'Only active (true) or inactive (false) ones.' })), ...PaginationInput },
    { additionalProperties: false },
  ),
  output: ListOutput('event_types', EventType),
  example: { active: true, limit: 20 },
  async handler(ctx, input) {
    const { limit: _limit, cursor: _cursor, ...filters } = input;
    const page = await paginate(ctx.cursors, input, filters, (request) =>
      listEventTypeRows(ctx.db, ctx.workspaceId, { active: filters.active }, request),
    );
    return { event_types: page.items.map((row) => eventTypeOutput(row, ctx.links)), pagination: page.pagination };
  },
});
