/**
 * The invitee's calendar file for a booking (RFC 5545): one VEVENT whose UID is the booking's id at
 * the service's host, so importing the file again after a reschedule or a cancellation updates the
 * same event (SEQUENCE grows with each change, STATUS says CANCELLED), never adds a second one.
 * Times are UTC; text is escaped and lines folded at 75 octets, as the RFC asks.
 */
import type { InviteeBooking } from './invitee-booking.queries.ts';

const CRLF = '\r\n';

/** TEXT values: backslash, semicolon and comma escaped, line breaks as \n (RFC 5545 §3.3.11). */
function text(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** 20261201T100000Z */
function utc(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Lines longer than 75 octets continue on the next line after a space, never inside a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

export function bookingCalendarFile(booking: InviteeBooking, links: { host: string; cancelUrl: string }): string {
  const canceled = booking.status === 'canceled';
  const description = canceled ? 'This call was canceled.' : `To cancel this call: ${links.cancelUrl}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Cuepoint//Scheduling//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${booking.id}@${links.host}`,
    `DTSTAMP:${utc(booking.updated_at)}`,
    `SEQUENCE:${booking.sequence}`,
    `DTSTART:${utc(booking.starts_at)}`,
    `DTEND:${utc(booking.ends_at)}`,
    `SUMMARY:${text(booking.event_type_name)}`,
    ...(booking.event_type_location ? [`LOCATION:${text(booking.event_type_location)}`] : []),
    `DESCRIPTION:${text(description)}`,
    `STATUS:${canceled ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join(CRLF) + CRLF;
}
