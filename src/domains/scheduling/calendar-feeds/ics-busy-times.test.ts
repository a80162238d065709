/**
 * busyTimesOf on its own (no thread, no network): RFC 5545's rules for local times a DST change
 * skips or repeats, prefixed IANA TZIDs, a VTIMEZONE whose rules ical.js would expand for ever
 * (ignored: the workspace's zone applies), an exception without its series, and the cap on busy
 * times. Rules that make ical.js spin are tested through the thread, in the worker's tests.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { busyTimesOf, FeedReadError, MAX_BUSY_TIMES } from './ics-busy-times.ts';

const window = { timeZone: 'Europe/Berlin', from: Date.parse('2026-03-01T00:00:00Z'), to: Date.parse('2027-04-05T00:00:00Z') };
const ics = (...events: string[][]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']), 'END:VCALENDAR', ''].join(
    '\r\n',
  );
const starts = (text: string) =>
  busyTimesOf(text, window).map((busy) => [new Date(busy.start).toISOString(), new Date(busy.end).toISOString()]);

test('a local time a spring-forward night skips takes the offset before the change; one a fall-back night repeats is the first', () => {
  assert.deepEqual(
    starts(
      ics(
        ['UID:gap', 'DTSTART;TZID=America/New_York:20260308T023000', 'DURATION:PT1H'],
        ['UID:overlap', 'DTSTART;TZID=America/New_York:20261101T013000', 'DURATION:PT1H'],
      ),
    ),
    [
      ['2026-03-08T07:30:00.000Z', '2026-03-08T08:30:00.000Z'], // 02:30 EST does not exist: 03:30 EDT
      ['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z'], // the first 01:30, still EDT
    ],
  );
});

test('prefixed IANA names are read with Intl; an unknown TZID with a runaway VTIMEZONE is the workspace’s wall clock', () => {
  const text = [
    'BEGIN:VCALENDAR',
    'BEGIN:VTIMEZONE',
    'TZID:Runaway',
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:+0500',
    'TZOFFSETTO:+0500',
    'RRULE:FREQ=SECONDLY',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    'UID:lightning',
    'DTSTART;TZID=/mozilla.org/20050126_1/Asia/Kolkata:20260310T090000',
    'DTEND;TZID=/mozilla.org/20050126_1/Asia/Kolkata:20260310T093000',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:runaway',
    'DTSTART;TZID=Runaway:20260310T090000',
    'DURATION:PT30M',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');
  assert.deepEqual(starts(text), [
    ['2026-03-10T03:30:00.000Z', '2026-03-10T04:00:00.000Z'], // 09:00 in Kolkata (+05:30)
    ['2026-03-10T08:00:00.000Z', '2026-03-10T08:30:00.000Z'], // 09:00 in Berlin (+01:00)
  ]);
});

test('an exception blocks its time even without its series; a timed event without an end blocks nothing', () => {
  assert.deepEqual(
    starts(
      ics(
        ['UID:orphan', 'RECURRENCE-ID:20260309T090000Z', 'DTSTART:20260309T100000Z', 'DTEND:20260309T110000Z'],
        ['UID:instant', 'DTSTART:20260309T120000Z'],
      ),
    ),
    [['2026-03-09T10:00:00.000Z', '2026-03-09T11:00:00.000Z']],
  );
});

test(`a feed with more than ${MAX_BUSY_TIMES.toLocaleString('en-US')} busy times in the window is refused with a sentence`, () => {
  const every15Minutes = ics(['UID:busy', 'SUMMARY:Busy', 'DTSTART:20260301T000000Z', 'DURATION:PT5M', 'RRULE:FREQ=MINUTELY;INTERVAL=15']);
  assert.throws(
    () => busyTimesOf(every15Minutes, window),
    (error: unknown) =>
      error instanceof FeedReadError &&
      error.message === 'The feed has more than 20,000 busy times between 2026-03-01 and 2027-04-05, the most that are kept.',
  );
});
