/**
 * cancel_booking: cancels a confirmed call for the workspace (canceled_by workspace). Writes the
 * booking's status, its booked_call ledger entry's status (canceled) and a step in the lead's
 * history; emits booking.canceled. The slot is free again at once.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../../core/operation.ts';
import { cancelBooking as cancel } from '../booking-changes.ts';
import { bookingDetail } from '../bookings.queries.ts';
import { BookingDetail, BookingId } from '../bookings.schemas.ts';

export const cancelBooking = defineOperation({
  name: 'cancel_booking',
  summary: 'Cancel a booked call',
  description:
    'Cancels a booking (kept, status canceled) and marks its booked_call outcome canceled; the slot is offered again. ' +
    'reason is kept on the booking. Canceling a canceled booking is 409. Sends booking.canceled.',
  method: 'POST',
  path: '/bookings/{booking_id}/cancel',
  group: 'Scheduling',
  scope: 'leads:write',
  entitlement: 'scheduling',
  write: true,
  errors: ['not_found', 'conflict'],
  input: Type.Object(
    {
      booking_id: BookingId,
      reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why, for the workspace’s records.' })),
    },
    { additionalProperties: false },
  ),
  output: BookingDetail,
  example: { booking_id: 'c2a7d9e4-5b6c-4d7e-8f90-a1b2c3d4e5f6', reason: 'The invitee asked by email.' },
  async handler(ctx, input) {
    await cancel(ctx.db, {
      workspaceId: ctx.workspaceId,
      bookingId: input.booking_id,
      by: 'workspace',
      reason: input.reason ?? null,
      now: ctx.now,
    });
    return bookingDetail(ctx.db, ctx.workspaceId, input.booking_id);
  },
});
