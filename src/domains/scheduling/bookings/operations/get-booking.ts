/** get_booking: one booking with its event type, times in UTC and the invitee's zone, lead and ledger entry. Reads only. */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { bookingDetail } from '../bookings.queries.ts';
import { BookingDetail, BookingId } from '../bookings.schemas.ts';

export const getBooking = defineOperation({
  name: 'get_booking',
  summary: 'Get a booked call',
  description:
    'Returns one booking: its event type, status, start and end in UTC and in the invitee’s zone, the invitee (masked ' +
    'while the workspace masks), its lead and ledger entry, and when it was rescheduled or canceled, by whom and why.',
  method: 'GET',
  path: '/bookings/{booking_id}',
  group: 'Scheduling',
  scope: 'leads:read',
  entitlement: 'scheduling',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ booking_id: BookingId }, { additionalProperties: false }),
  output: BookingDetail,
  example: { booking_id: 'c2a7d9e4-5b6c-4d7e-8f90-a1b2c3d4e5f6' },
  handler: (ctx, input) => bookingDetail(ctx.db, ctx.workspaceId, input.booking_id),
});
