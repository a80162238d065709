/**
 * Every reason code provoked, each with its sentence, and a slot with several at once: minimum
 * notice, horizon, daily cap (only counted bookings), buffers around bookings, date overrides that
 * close a day or set other hours, and busy calendar times.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainStart, slotsInWindow } from './availability.ts';
import type { ExistingBooking, SchedulingRules } from './scheduling-rules.ts';
import type { SlotVerdict } from './slot-reasons.ts';

const WEEKDAY_HOURS = [{ start: '09:00', end: '17:00' }];
// New York in June is UTC-04:00; 2026-06-09 is a Tuesday.
const RULES: SchedulingRules = {
  durationMinutes: 30,
  slotIntervalMinutes: 30,
  bufferBeforeMinutes: 10,
  bufferAfterMinutes: 20,
  minimumNoticeMinutes: 120,
  horizonDays: 10,
  dailyCap: 2,
  timeZone: 'America/New_York',
  weeklyHours: { 1: WEEKDAY_HOURS, 2: WEEKDAY_HOURS, 3: WEEKDAY_HOURS, 4: WEEKDAY_HOURS, 5: WEEKDAY_HOURS },
  dateOverrides: [
    { date: '2026-06-11', hours: [{ start: '13:00', end: '15:00' }] },
    { date: '2026-06-12', hours: [] },
  ],
};
const local = (day: string, time: string) => new Date(`${day}T${time}:00-04:00`);
const booking = (id: string, day: string, start: string, end: string, countsTowardCap = true): ExistingBooking => ({
  id,
  start: local(day, start),
  end: local(day, end),
  countsTowardCap,
});
const CONTEXT = {
  now: local('2026-06-09', '10:00'),
  bookings: [
    booking('bk_tue', '2026-06-09', '15:00', '15:30'),
    booking('bk_wed_a', '2026-06-10', '10:00', '10:30'),
    booking('bk_wed_b', '2026-06-10', '14:00', '14:30'),
    booking('bk_mon_other', '2026-06-15', '11:00', '11:30', false),
  ],
  busy: [
    { start: local('2026-06-09', '16:00'), end: local('2026-06-09', '16:30'), feed: 'work' },
    { start: local('2026-06-10', '09:30'), end: local('2026-06-10', '10:30'), feed: 'personal' },
  ],
};

const at = (day: string, time: string): SlotVerdict => explainStart(RULES, local(day, time), CONTEXT);
const codes = (verdict: SlotVerdict) => verdict.reasons.map((r) => r.code);

test('each reason code on its own, with its sentence', () => {
  assert.deepEqual(codes(at('2026-06-09', '09:30')), ['past']);
  assert.equal(at('2026-06-09', '09:30').reasons[0]?.message, 'It starts at 2026-06-09 09:30 (UTC-04:00), which is already past.');
  assert.deepEqual(codes(at('2026-06-09', '11:00')), ['min_notice']);
  assert.equal(at('2026-06-09', '11:00').reasons[0]?.message, "It starts in 60 minutes; bookings need at least 120 minutes' notice.");
  assert.ok(at('2026-06-09', '12:00').offered, 'exactly the notice is enough');
  assert.deepEqual(codes(at('2026-06-22', '09:00')), ['beyond_horizon']);
  assert.match(at('2026-06-22', '09:00').reasons[0]?.message ?? '', /the last bookable day is 2026-06-19/);
  assert.ok(at('2026-06-19', '16:30').offered, 'the horizon’s last day is bookable to its end');
  assert.deepEqual(codes(at('2026-06-15', '08:30')), ['outside_hours']);
  assert.equal(
    at('2026-06-13', '10:00').reasons[0]?.message,
    '2026-06-13 10:00 (UTC-04:00) to 10:30 falls on a Saturday, which has no working hours.',
  );
  assert.equal(
    at('2026-06-10', '16:45').reasons.find((r) => r.code === 'outside_hours')?.message,
    '2026-06-10 16:45 (UTC-04:00) to 17:15 is not inside one stretch of the Wednesday working hours (09:00–17:00).',
  );
  const booked = at('2026-06-09', '15:00');
  assert.deepEqual([codes(booked), booked.reasons[0]?.bookingIds], [['booked'], ['bk_tue']]);
  assert.equal(booked.reasons[0]?.message, 'It overlaps booking bk_tue (2026-06-09 15:00 (UTC-04:00) to 2026-06-09 15:30 (UTC-04:00)).');
  const busy = at('2026-06-09', '16:00');
  assert.deepEqual([codes(busy), busy.reasons[0]?.feeds], [['busy_calendar'], ['work']]);
  assert.match(busy.reasons[0]?.message ?? '', /^It overlaps busy time on calendar work \(2026-06-09 16:00/);
});

test('buffers: the slot and the booking, each widened by its buffers, may not overlap', () => {
  // bk_tue 15:00–15:30 widened: 14:50–15:50. A slot widened: 10 minutes before, 20 after.
  assert.deepEqual(codes(at('2026-06-09', '14:30')), ['buffer'], '14:20–15:20 reaches 14:50');
  assert.ok(at('2026-06-09', '14:00').offered, '13:50–14:50 just touches');
  const after = at('2026-06-09', '15:30');
  assert.deepEqual([codes(after), after.reasons[0]?.bookingIds], [['buffer'], ['bk_tue']]);
  assert.match(after.reasons[0]?.message ?? '', /10 minutes are kept free before each meeting and 20 minutes after\.$/);
  // A booking under other buffers keeps its own: with none after it, 15:30 only needs its own 10 minutes before.
  const bare = {
    ...CONTEXT,
    bookings: [{ ...booking('bk_bare', '2026-06-09', '15:00', '15:20'), bufferBeforeMinutes: 0, bufferAfterMinutes: 0 }],
  };
  assert.ok(explainStart(RULES, local('2026-06-09', '15:30'), bare).offered);
  assert.deepEqual(codes(explainStart(RULES, local('2026-06-09', '14:30'), bare)), ['buffer'], '14:30 + 30 + 20 reaches 15:00');
});

test('date overrides close a day or set other hours; the daily cap counts only counted bookings by local day', () => {
  assert.deepEqual(codes(at('2026-06-12', '10:00')), ['date_override']);
  assert.equal(
    at('2026-06-12', '10:00').reasons[0]?.message,
    '2026-06-12 10:00 (UTC-04:00) to 10:30 falls on 2026-06-12, which a date override closes all day.',
  );
  assert.deepEqual(codes(at('2026-06-11', '10:00')), ['date_override']);
  assert.match(at('2026-06-11', '14:45').reasons[0]?.message ?? '', /hours a date override sets for 2026-06-11 \(13:00–15:00\)\.$/);
  assert.ok(at('2026-06-11', '13:00').offered, 'the override’s hours are open');
  assert.deepEqual(codes(at('2026-06-10', '12:00')), ['daily_cap']);
  assert.equal(at('2026-06-10', '12:00').reasons[0]?.message, '2026-06-10 already has 2 bookings, and the daily cap is 2.');
  assert.ok(at('2026-06-15', '14:00').offered, 'a booking that does not count leaves the cap free');
});

test('a slot lists every reason that applies, in a fixed order', () => {
  const crowded = at('2026-06-10', '10:00');
  assert.deepEqual(codes(crowded), ['booked', 'daily_cap', 'busy_calendar']);
  assert.deepEqual(codes(at('2026-06-10', '10:30')), ['buffer', 'daily_cap']);
  assert.deepEqual(codes(at('2026-06-09', '07:00')), ['past', 'outside_hours']);
  assert.deepEqual(codes(at('2026-06-20', '08:00')), ['beyond_horizon', 'outside_hours']);
  assert.deepEqual(codes(at('2026-06-09', '11:10')), ['min_notice', 'off_interval']);
  const everything = explainStart(RULES, local('2026-06-10', '09:50'), CONTEXT);
  assert.deepEqual(codes(everything), ['booked', 'daily_cap', 'busy_calendar', 'off_interval']);
  for (const reason of [...crowded.reasons, ...everything.reasons]) assert.match(reason.message, /\.$/);
});

test('a window reports every candidate with the same verdicts as asking one by one', () => {
  const slots = slotsInWindow(RULES, { ...CONTEXT, from: local('2026-06-09', '00:00'), to: local('2026-06-23', '00:00') });
  assert.equal(slots.length, 14 * 48);
  for (const slot of slots) assert.deepEqual(slot, explainStart(RULES, slot.start, CONTEXT));
  const seen = new Set(slots.flatMap((s) => s.reasons.map((r) => r.code)));
  assert.deepEqual([...seen].sort(), [
    'beyond_horizon',
    'booked',
    'buffer',
    'busy_calendar',
    'daily_cap',
    'date_override',
    'min_notice',
    'outside_hours',
    'past',
  ]);
  const offeredTuesday = slots.filter((s) => s.offered && s.localDate === '2026-06-09').map((s) => s.localTime);
  assert.deepEqual(offeredTuesday, ['12:00', '12:30', '13:00', '13:30', '14:00', '16:30']);
});
