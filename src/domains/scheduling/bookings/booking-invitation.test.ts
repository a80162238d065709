/**
 * The booking's calendar invitation, read back with ical.js and checked against what RFC 5546 asks of
 * a REQUEST and a CANCEL: one VEVENT, the same UID for the booking's life, SEQUENCE as given, UTC
 * times, ORGANIZER and ATTENDEE as mailto: addresses with their names; text escaped so commas,
 * semicolons, backslashes and line breaks come back exactly; names that would break a parameter
 * (line breaks, quotes) made harmless; lines folded at 75 octets, CRLF line ends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import ICAL from 'ical.js';
import { bookingInvitation, type InvitationFacts } from './booking-invitation.ts';

const FACTS: InvitationFacts = {
  method: 'REQUEST',
  uid: '7d9f2c1e-0000-4000-8000-000000000001@cuepoint.example',
  sequence: 0,
  startsAt: new Date('2026-12-01T15:00:00Z'),
  endsAt: new Date('2026-12-01T15:30:00Z'),
  stampedAt: new Date('2026-11-30T09:00:00Z'),
  summary: 'Intro call, 30 min; with Acme\\Co',
  description: 'Cancel: https://cuepoint.example/bookings/x/cancel\nReschedule: https://cuepoint.example/bookings/x/reschedule',
  location: 'https://meet.example/abc',
  organizer: { email: 'olive@acme.example', name: 'Olive Owner' },
  attendee: { email: 'ada@example.com', name: 'Ada Lovelace' },
};

function read(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents('vevent');
  assert.equal(events.length, 1);
  return { calendar, event: events[0] as ICAL.Component };
}

test('a REQUEST carries what calendars need to add the call and update it later', () => {
  const ics = bookingInvitation(FACTS);
  assert.ok(ics.endsWith('\r\n') && !/[^\r]\n/.test(ics), 'CRLF line ends only');
  assert.ok(
    ics.split('\r\n').every((line) => Buffer.byteLength(line) <= 75),
    'lines folded at 75 octets',
  );
  const { calendar, event } = read(ics);
  assert.equal(calendar.getFirstPropertyValue('method'), 'REQUEST');
  assert.equal(calendar.getFirstPropertyValue('version'), '2.0');
  assert.equal(event.getFirstPropertyValue('uid'), FACTS.uid);
  assert.equal(event.getFirstPropertyValue('sequence'), 0);
  assert.equal(event.getFirstPropertyValue('status'), 'CONFIRMED');
  const start = event.getFirstPropertyValue('dtstart') as ICAL.Time;
  assert.equal(start.zone?.tzid, 'UTC', 'times in UTC: no VTIMEZONE needed');
  assert.equal(start.toJSDate().toISOString(), '2026-12-01T15:00:00.000Z');
  assert.equal((event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().toISOString(), '2026-12-01T15:30:00.000Z');
  assert.equal((event.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate().toISOString(), '2026-11-30T09:00:00.000Z');
  assert.equal(event.getFirstPropertyValue('summary'), FACTS.summary, 'commas, semicolons and backslashes come back exactly');
  assert.equal(event.getFirstPropertyValue('description'), FACTS.description, 'line breaks too');
  assert.equal(event.getFirstPropertyValue('location'), FACTS.location);
  const organizer = event.getFirstProperty('organizer') as ICAL.Property;
  assert.equal(organizer.getFirstValue(), 'mailto:olive@acme.example');
  assert.equal(organizer.getParameter('cn'), 'Olive Owner');
  const attendee = event.getFirstProperty('attendee') as ICAL.Property;
  assert.equal(attendee.getFirstValue(), 'mailto:ada@example.com');
  assert.deepEqual(
    [attendee.getParameter('cn'), attendee.getParameter('role'), attendee.getParameter('partstat')],
    ['Ada Lovelace', 'REQ-PARTICIPANT', 'ACCEPTED'],
  );
});

test('a reschedule keeps the UID with a higher SEQUENCE; a CANCEL says CANCELLED', () => {
  const moved = read(
    bookingInvitation({ ...FACTS, sequence: 1, startsAt: new Date('2026-12-02T10:00:00Z'), endsAt: new Date('2026-12-02T10:30:00Z') }),
  );
  assert.equal(moved.event.getFirstPropertyValue('uid'), FACTS.uid);
  assert.equal(moved.event.getFirstPropertyValue('sequence'), 1);
  const canceled = read(bookingInvitation({ ...FACTS, method: 'CANCEL', sequence: 2 }));
  assert.equal(canceled.calendar.getFirstPropertyValue('method'), 'CANCEL');
  assert.equal(canceled.event.getFirstPropertyValue('uid'), FACTS.uid);
  assert.equal(canceled.event.getFirstPropertyValue('sequence'), 2);
  assert.equal(canceled.event.getFirstPropertyValue('status'), 'CANCELLED');
  assert.equal((canceled.event.getFirstProperty('attendee') as ICAL.Property).getParameter('partstat'), undefined);
});

test('names that would break a parameter or add a property are made harmless; no location, no LOCATION', () => {
  const ics = bookingInvitation({
    ...FACTS,
    location: null,
    attendee: { email: 'ada@example.com', name: 'Ada\r\nATTENDEE:mailto:evil@example.com;"x"' },
    organizer: { email: 'olive@acme.example', name: '\u0000' },
  });
  const { event } = read(ics);
  assert.equal(event.getAllProperties('attendee').length, 1, 'no second attendee smuggled in');
  assert.equal((event.getFirstProperty('attendee') as ICAL.Property).getParameter('cn'), 'Ada ATTENDEE:mailto:evil@example.com; x');
  assert.equal((event.getFirstProperty('organizer') as ICAL.Property).getParameter('cn'), undefined, 'an empty name is left out');
  assert.equal(event.getFirstPropertyValue('location'), null);
  const long = read(bookingInvitation({ ...FACTS, summary: 'Kaffee ☕ und Kuchen '.repeat(20) }));
  assert.equal(long.event.getFirstPropertyValue('summary'), 'Kaffee ☕ und Kuchen '.repeat(20), 'folding never splits a character');
});
