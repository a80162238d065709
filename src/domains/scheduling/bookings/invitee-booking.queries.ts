/**
 * The booking an invitee's link names, read without a credential: found by id, then shown only when
 * the link's secret is the booking's (compared by hash, in constant time). Anything else, a malformed
 * id too, is "no such booking", so a link reveals nothing about bookings it does not hold the secret of.
 */

import type { Kysely } from 'kysely';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { BookingRow, Database } from '../../../db/tables/index.ts';
import { isBookingSecret } from './booking-secret.ts';

/** A secret is 43 base64url characters; anything far longer is not worth hashing. */
const MAX_SECRET_LENGTH = 128;

export interface InviteeBooking extends BookingRow {
  event_type_name: string;
  event_type_location: string | null;
  event_type_zone: string;
}

export async function inviteeBooking(
  db: Kysely<Database>,
  bookingId: string,
  secret: string | undefined,
): Promise<InviteeBooking | undefined> {
  if (!isUuid(bookingId) || !secret || secret.length > MAX_SECRET_LENGTH) return undefined;
  const row = await db
    .selectFrom('bookings as b')
    .innerJoin('event_types as et', 'et.id', 'b.event_type_id')
    .selectAll('b')
    .select(['et.name as event_type_name', 'et.location as event_type_location', 'et.time_zone as event_type_zone'])
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
  if (!row || !isBookingSecret(secret, row.cancel_token_hash)) return undefined;
  return row;
}
