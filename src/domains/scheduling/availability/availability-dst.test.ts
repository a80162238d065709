/**
 * Candidates and offered slots on the days clocks change (New York, Berlin) with night and day hours
 * (01:00–04:00, 09:00–17:00), a half-hour zone with 45-minute slots, the grid from local midnight,
 * and the 31-day window limit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, startOfLocalDay } from '../../../core/calendar/calendar-days.ts';
import { explainStart, slotsInWindow } from './availability.ts';
import { SlotWindowError } from './scheduling-errors.ts';
import type { SchedulingRules } from './scheduling-rules.ts';

const LONG_AGO = new Date('2020-01-01T00:00:00Z');
const NIGHT_AND_DAY = [
  { start: '01:00', end: '04:00' },
  { start: '09:00', end: '17:00' },
];

function rules(overrides: Partial<SchedulingRules>): SchedulingRules {
  return {
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    minimumNoticeMinutes: 0,
    horizonDays: null,
    dailyCap: null,
    timeZone: 'UTC',
    weeklyHours: {},
    dateOverrides: [],
    ...overrides,
  };
}

/** The local day's candidates: [count, offered as "HH:MM±hh:mm"]. */
function day(r: SchedulingRules, date: string) {
  const slots = slotsInWindow(r, {
    from: startOfLocalDay(date, r.timeZone),
    to: startOfLocalDay(addDays(date, 1), r.timeZone),
    now: LONG_AGO,
    bookings: [],
    busy: [],
  });
  for (const slot of slots) assert.equal(slot.localDate, date, 'every candidate lies on the local day');
  return { count: slots.length, offered: slots.filter((s) => s.offered).map((s) => `${s.localTime}${s.utcOffset}`), slots };
}

const nineToFive = (offset: string) =>
  Array.from({ length: 16 }, (_, i) => `${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}${offset}`);

test('New York springs forward: 02:00 and 02:30 are no candidates, the night hours are two real hours', () => {
  const { count, offered, slots } = day(rules({ timeZone: 'America/New_York', weeklyHours: { 7: NIGHT_AND_DAY } }), '2026-03-08');
  assert.equal(count, 46, '23 hours of half-hour candidates');
  assert.ok(!slots.some((s) => s.localTime.startsWith('02:')));
  assert.deepEqual(offered, ['01:00-05:00', '01:30-05:00', '03:00-04:00', '03:30-04:00', ...nineToFive('-04:00')]);
  // 01:30 EST + 30 minutes ends at 03:00 EDT: inside the night hours in real time.
  assert.equal(slots.find((s) => s.localTime === '01:30')?.end.toISOString(), '2026-03-08T07:00:00.000Z');
});

test('New York falls back: 01:00 and 01:30 are candidates twice, and the night hours are four real hours', () => {
  const { count, offered, slots } = day(rules({ timeZone: 'America/New_York', weeklyHours: { 7: NIGHT_AND_DAY } }), '2026-11-01');
  assert.equal(count, 50, '25 hours of half-hour candidates');
  assert.deepEqual(offered, [
    ...['01:00-04:00', '01:30-04:00', '01:00-05:00', '01:30-05:00', '02:00-05:00', '02:30-05:00', '03:00-05:00', '03:30-05:00'],
    ...nineToFive('-05:00'),
  ]);
  const twice = slots.filter((s) => s.localTime === '01:30').map((s) => s.start.toISOString());
  assert.deepEqual(twice, ['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z']);
});

test('Berlin springs forward and falls back at 02:00–03:00 local', () => {
  const berlin = rules({ timeZone: 'Europe/Berlin', weeklyHours: { 7: NIGHT_AND_DAY }, durationMinutes: 60 });
  const spring = day(berlin, '2026-03-29');
  assert.equal(spring.count, 46);
  // One-hour meetings: 01:00 CET ends at 03:00 CEST; 03:30 would end after 04:00.
  assert.deepEqual(spring.offered.slice(0, 3), ['01:00+01:00', '01:30+01:00', '03:00+02:00']);
  assert.equal(spring.offered.length, 3 + 15);
  const fall = day(berlin, '2026-10-25');
  assert.equal(fall.count, 50);
  assert.deepEqual(fall.offered.slice(0, 7), [
    '01:00+02:00',
    '01:30+02:00',
    '02:00+02:00',
    '02:30+02:00',
    '02:00+01:00',
    '02:30+01:00',
    '03:00+01:00',
  ]);
  assert.equal(fall.offered.length, 7 + 15);
  assert.equal(fall.slots.find((s) => s.localTime === '09:00')?.start.toISOString(), '2026-10-25T08:00:00.000Z');
});

test('Kolkata (UTC+05:30) with 45-minute slots: the grid from local midnight reaches 09:00 and fits ten meetings', () => {
  const kolkata = rules({
    timeZone: 'Asia/Kolkata',
    durationMinutes: 45,
    slotIntervalMinutes: 45,
    weeklyHours: { 1: [{ start: '09:00', end: '17:00' }] },
  });
  const { count, offered, slots } = day(kolkata, '2026-06-01');
  assert.equal(count, 32);
  assert.deepEqual(
    offered.map((text) => text.slice(0, 5)),
    ['09:00', '09:45', '10:30', '11:15', '12:00', '12:45', '13:30', '14:15', '15:00', '15:45'],
  );
  assert.equal(slots.find((s) => s.offered)?.start.toISOString(), '2026-06-01T03:30:00.000Z');
  const late = slots.find((s) => s.localTime === '16:30');
  assert.deepEqual(
    late?.reasons.map((r) => r.code),
    ['outside_hours'],
    '16:30 + 45 minutes ends after 17:00',
  );
});

test('candidates are aligned to local midnight, not to the window; a grid that does not divide the day restarts at midnight', () => {
  const r = rules({ timeZone: 'America/New_York', slotIntervalMinutes: 50, durationMinutes: 50 });
  const slots = slotsInWindow(r, {
    from: new Date('2026-06-09T03:10:00Z'),
    to: new Date('2026-06-09T05:00:00Z'),
    now: LONG_AGO,
    bookings: [],
    busy: [],
  });
  // 23:10 EDT is not on the grid; 23:20 is (28 × 50 minutes), then midnight, then 00:50.
  assert.deepEqual(
    slots.map((s) => `${s.localDate} ${s.localTime}`),
    ['2026-06-08 23:20', '2026-06-09 00:00', '2026-06-09 00:50'],
  );
  assert.deepEqual(
    slots[0]?.reasons.map((r) => r.code),
    ['outside_hours'],
  );
});

test('explainStart answers for an exact instant, on the grid or off it, the second 01:30 of a fall-back night included', () => {
  const r = rules({ timeZone: 'America/New_York', weeklyHours: { 7: NIGHT_AND_DAY } });
  const context = { now: LONG_AGO, bookings: [], busy: [] };
  const second = explainStart(r, new Date('2026-11-01T06:30:00Z'), context);
  assert.deepEqual([second.offered, second.localTime, second.utcOffset], [true, '01:30', '-05:00']);
  const off = explainStart(r, new Date('2026-11-01T14:10:00Z'), context);
  assert.equal(off.offered, false);
  assert.deepEqual(
    off.reasons.map((reason) => reason.message),
    [
      '2026-11-01 09:10 (UTC-05:00) is not a start time: starts are every 30 minutes from local midnight (the nearest are 09:00 and 09:30).',
    ],
  );
  const seconds = explainStart(r, new Date('2026-11-01T14:00:30Z'), context);
  assert.deepEqual(
    seconds.reasons.map((reason) => reason.code),
    ['off_interval'],
  );
});

test('a window is at most 31 days, and to must follow from: a typed 400 names the field', () => {
  const r = rules({ weeklyHours: { 1: [{ start: '09:00', end: '17:00' }] } });
  const from = new Date('2026-06-01T00:00:00Z');
  const base = { now: LONG_AGO, bookings: [], busy: [] };
  const longest = slotsInWindow(r, { ...base, from, to: new Date('2026-07-02T00:00:00Z') });
  assert.equal(longest.length, 31 * 48);
  const attempts = [new Date('2026-07-02T00:00:00.001Z'), from, new Date('2026-05-31T00:00:00Z'), new Date(Number.NaN)];
  const problems = [
    'to: must be at most 31 days after from',
    'to: must be after from',
    'to: must be after from',
    'to: must be a date-time',
  ];
  attempts.forEach((to, index) => {
    assert.throws(
      () => slotsInWindow(r, { ...base, from, to }),
      (error: unknown) =>
        error instanceof SlotWindowError &&
        error.code === 'invalid_request' &&
        error.status === 400 &&
        `${error.problems[0]?.field}: ${error.problems[0]?.problem}` === problems[index],
    );
  });
});
