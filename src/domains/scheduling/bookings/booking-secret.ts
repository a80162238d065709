/**
 * The invitee's secret for one booking: it is in the calendar file and cancel links and nowhere
 * else. Shown once (create_booking's answer, the booking page's confirmation); only its SHA-256 is
 * stored (`bookings.cancel_token_hash`), so a database read cannot cancel anyone's call.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newBookingSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: bookingSecretHash(secret) };
}

export function bookingSecretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether `secret` is the booking's: hashes compared in constant time, so timing tells nothing about the stored one. */
export function isBookingSecret(secret: string, storedHash: string): boolean {
  const given = Buffer.from(bookingSecretHash(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
