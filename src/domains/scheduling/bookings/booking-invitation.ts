/**
 * A booking's calendar invitation (issue 30; iTIP, RFC 5546, over iCalendar, RFC 5545), written with
 * ical.js rather than by hand: `METHOD:REQUEST` when a call is booked or moved, `METHOD:CANCEL` when
 * it is canceled. One VEVENT whose UID stays the booking's for its whole life and whose SEQUENCE grows
 * with each change, so Google Calendar, Outlook and Apple Calendar update the same event instead of
 * adding another; times in UTC (no VTIMEZONE needed); the host as ORGANIZER, the invitee as ATTENDEE.
 *
 * Names end up in parameters (CN), where a line break or a double quote would end the value: they
 * are reduced to printable text first. Every TEXT value is escaped and every line folded at 75
 * octets by ical.js.
 */
import ICAL from 'ical.js';

export type InvitationMethod = 'REQUEST' | 'CANCEL';

export interface InvitationFacts {
  method: InvitationMethod;
  /** `<booking id>@<service host>`: the same for every invitation of one booking. */
  uid: string;
  /** The booking's sequence: 0 when booked, one more with each reschedule or cancellation. */
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  /** When this version of the invitation was made (DTSTAMP). */
  stampedAt: Date;
  summary: string;
  description: string;
  location: string | null;
  organizer: { email: string; name: string };
  attendee: { email: string; name: string | null };
}

/** A display name fit for a CN parameter: no control characters, no double quotes, at most 120 characters. */
function parameterText(name: string): string {
  return (
    name
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f"]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120)
  );
}

function person(component: ICAL.Component, name: 'organizer' | 'attendee', email: string, displayName: string | null) {
  const property = component.addPropertyWithValue(name, `mailto:${email}`);
  const cn = displayName === null ? '' : parameterText(displayName);
  if (cn) property.setParameter('cn', cn);
  return property;
}

/** The invitation as an iCalendar object (CRLF line ends), ready for a `text/calendar; method=…` part. */
export function bookingInvitation(facts: InvitationFacts): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('prodid', '-//Cuepoint//Scheduling//EN');
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('calscale', 'GREGORIAN');
  calendar.addPropertyWithValue('method', facts.method);

  const event = new ICAL.Component('vevent');
  event.addPropertyWithValue('uid', facts.uid);
  event.addPropertyWithValue('dtstamp', ICAL.Time.fromJSDate(facts.stampedAt, true));
  event.addPropertyWithValue('sequence', facts.sequence);
  event.addPropertyWithValue('dtstart', ICAL.Time.fromJSDate(facts.startsAt, true));
  event.addPropertyWithValue('dtend', ICAL.Time.fromJSDate(facts.endsAt, true));
  event.addPropertyWithValue('summary', facts.summary);
  if (facts.location) event.addPropertyWithValue('location', facts.location);
  event.addPropertyWithValue('description', facts.description);
  person(event, 'organizer', facts.organizer.email, facts.organizer.name);
  const attendee = person(event, 'attendee', facts.attendee.email, facts.attendee.name);
  attendee.setParameter('role', 'REQ-PARTICIPANT');
  // The invitee booked the time themselves: it is accepted, not a question (a CANCEL says no more).
  if (facts.method === 'REQUEST') attendee.setParameter('partstat', 'ACCEPTED');
  attendee.setParameter('cutype', 'INDIVIDUAL');
  event.addPropertyWithValue('status', facts.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED');
  event.addPropertyWithValue('transp', 'OPAQUE');
  calendar.addSubcomponent(event);
  return `${calendar.toString()}\r\n`;
}
