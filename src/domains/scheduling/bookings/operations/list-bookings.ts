/**
 * list_bookings: the workspace's booked calls by scope (upcoming soonest first, past most recent
 * first, or all), optionally of one event type or status, invitee fields masked while the workspace
 * masks. Reads only. An event_type_id that is not an event type of the workspace is not_found, not an
 * empty list.
 */
import { Type } from 'typebox';
import { ListOutput, PaginationInput, paginate } from '../../../../core/lists/pagination.ts';
import { defineOperation } from '../../../../core/operation.ts';
import { ResourceId, StringEnum } from '../../../../core/schemas.ts';
import { findEventType } from '../../event-types/event-types.queries.ts';
import { BOOKING_SCOPES, listBookingRows } from '../bookings.queries.ts';
import { BookingDetail, BookingStatus } from '../bookings.schemas.ts';

export const listBookings = defineOperation({
  name: 'list_bookings',
  summary: 'List booked calls',
  description:
    'Lists bookings. scope: upcoming (default: confirmed calls not yet over, soonest first), past (calls already over, ' +
    'most recent first) or all (most recent first). Filter by event_type_id and status (with upcoming, status=canceled ' +
    'lists canceled calls not yet due).',
  method: 'GET',
  path: '/bookings',
  group: 'Scheduling',
  scope: 'leads:read',
  entitlement: 'scheduling',
  write: false,
  errors: ['not_found'],
  input: Type.Object(
    {
      scope: Type.Optional(StringEnum(BOOKING_SCOPES, { default: 'upcoming', description: 'upcoming (default), past or all.' })),
      event_type_id: Type.Optional(ResourceId('event_type', 'Only bookings of this event type.')),
      status: Type.Optional(BookingStatus),
      ...PaginationInput,
    },
    { additionalProperties: false },
  ),
  output: ListOutput('bookings', BookingDetail),
  example: { scope: 'upcoming', limit: 20 },
  async handler(ctx, input) {
    const { limit: _limit, cursor: _cursor, ...rest } = input;
    const filters = { ...rest, scope: rest.scope ?? 'upcoming' };
    if (filters.event_type_id) await findEventType(ctx.db, ctx.workspaceId, filters.event_type_id);
    const page = await paginate(ctx.cursors, input, filters, (request) =>
      listBookingRows(
        ctx.db,
        ctx.workspaceId,
        { scope: filters.scope, eventTypeId: filters.event_type_id, status: filters.status, now: ctx.now },
        request,
      ),
    );
    return { bookings: page.items, pagination: page.pagination };
  },
});
