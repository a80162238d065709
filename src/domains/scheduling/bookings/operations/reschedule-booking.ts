/**
 * reschedule_booking: moves a confirmed call to another offered start, keeping its id, lead and
 * ledger entry. Writes the booking's times and a step in the lead's history; emits
 * booking.rescheduled with the old times. A start not offered is 409, as for create_booking.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { Timestamp } from '../../../../core/schemas.ts';
import { rescheduleBooking as reschedule } from '../booking-changes.ts';
import { bookingDetail } from '../bookings.queries.ts';
import { BookingDetail, BookingId } from '../bookings.schemas.ts';

export const rescheduleBooking = defineOperation({
  name: 'reschedule_booking',
  summary: 'Move a booked call to another time',
  description:
    'Moves a booking to start (an offered slot; its own current time does not block it). The booking_id stays. ' +
    'Not offered: 409 with details.reasons and details.next_slots. Canceled bookings cannot move. Sends booking.rescheduled.',
  method: 'POST',
  path: '/bookings/{booking_id}/reschedule',
  group: 'Scheduling',
  scope: 'leads:write',
  entitlement: 'scheduling',
  write: true,
  errors: ['not_found', 'conflict'],
  input: Type.Object(
    { booking_id: BookingId, start: Timestamp('The new start, as availability lists it (any offset).') },
    { additionalProperties: false },
  ),
  output: BookingDetail,
  example: { booking_id: 'c2a7d9e4-5b6c-4d7e-8f90-a1b2c3d4e5f6', start: '2026-12-02T09:00:00Z' },
  async handler(ctx, input) {
    await reschedule(ctx.db, { workspaceId: ctx.workspaceId, bookingId: input.booking_id, start: new Date(input.start), now: ctx.now });
    return bookingDetail(ctx.db, ctx.workspaceId, input.booking_id);
  },
});
