/**
 * The feed reader's process: a rule ical.js expands for ever swells its heap until the ceiling, and
 * that costs the reader's own process, answered as a feed error, never the service that asked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FeedReadError } from './ics-busy-times.ts';
import { readBusyTimes } from './ics-reader.ts';

const NEVER_ENDING = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Cuepoint tests//EN',
  'BEGIN:VEVENT',
  'UID:spin@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART:20260101T100000Z',
  'DTEND:20260101T110000Z',
  'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

const WINDOW = { from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2027-02-05T00:00:00Z'), timeZone: 'UTC' };

test('a feed that outgrows the reader’s heap ceiling is a feed error, and the asking process goes on', async () => {
  await assert.rejects(
    readBusyTimes(NEVER_ENDING, WINDOW, { heapMb: 16, deadlineMs: 60_000 }),
    (error: unknown) => error instanceof FeedReadError && /needs more than 16 MB of memory/.test(error.message),
  );
  // Still here, and a plain feed still reads.
  const plain = NEVER_ENDING.replace('RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30\r\n', '');
  const busy = await readBusyTimes(plain, WINDOW);
  assert.deepEqual(
    busy.map(({ start, end }) => [start, end]),
    [[Date.parse('2026-01-01T10:00:00Z'), Date.parse('2026-01-01T11:00:00Z')]],
  );
});
