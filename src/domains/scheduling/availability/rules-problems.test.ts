/**
 * Rules the engine cannot compute with are named, every problem at once, and the engine refuses
 * them with a typed 400 instead of looping or guessing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slotsInWindow } from './availability.ts';
import { schedulingRulesProblems } from './rules-problems.ts';
import { SchedulingRulesError } from './scheduling-errors.ts';
import type { SchedulingRules } from './scheduling-rules.ts';

const GOOD: SchedulingRules = {
  durationMinutes: 30,
  slotIntervalMinutes: 30,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minimumNoticeMinutes: 0,
  horizonDays: null,
  dailyCap: null,
  timeZone: 'Europe/Berlin',
  weeklyHours: {
    1: [
      { start: '09:00', end: '12:00' },
      { start: '12:00', end: '24:00' },
    ],
  },
  dateOverrides: [{ date: '2026-12-24', hours: [] }],
};

test('good rules have no problems; touching intervals and a 24:00 end are fine', () => {
  assert.deepEqual(schedulingRulesProblems(GOOD), []);
});

test('every problem is named with its JSON field', () => {
  const bad: SchedulingRules = {
    ...GOOD,
    durationMinutes: 0,
    slotIntervalMinutes: 7.5,
    dailyCap: 0,
    timeZone: 'Mars/Olympus',
    weeklyHours: {
      2: [
        { start: '9:00', end: '24:00' },
        { start: '13:00', end: '12:00' },
        { start: '10:00', end: '14:00' },
        { start: '13:30', end: '15:00' },
      ],
      [8 as 1]: [],
    },
    dateOverrides: [
      { date: '2026-02-30', hours: [] },
      { date: '2026-12-24', hours: [{ start: '24:00', end: '24:00' }] },
      { date: '2026-12-24', hours: [] },
    ],
  };
  assert.deepEqual(schedulingRulesProblems(bad, 'event_type'), [
    { field: 'event_type.duration_minutes', problem: 'must be a whole number from 5 to 1440' },
    { field: 'event_type.slot_interval_minutes', problem: 'must be a whole number from 5 to 1440' },
    { field: 'event_type.daily_cap', problem: 'must be a whole number from 1 to 1000, or null for no limit' },
    { field: 'event_type.time_zone', problem: 'must be an IANA time zone such as Europe/Berlin' },
    { field: 'event_type.weekly_hours.2[0].start', problem: 'must be a time "HH:MM" from 00:00 to 23:59' },
    { field: 'event_type.weekly_hours.2[1]', problem: 'ends (12:00) before it starts (13:00)' },
    { field: 'event_type.weekly_hours.2[3]', problem: 'overlaps event_type.weekly_hours.2[2]' },
    { field: 'event_type.weekly_hours.8', problem: 'must be a weekday from 1 (Monday) to 7 (Sunday)' },
    { field: 'event_type.date_overrides[0].date', problem: 'must be a real date "YYYY-MM-DD"' },
    { field: 'event_type.date_overrides[1].hours[0].start', problem: 'must be a time "HH:MM" from 00:00 to 23:59' },
    { field: 'event_type.date_overrides[2].date', problem: 'repeats 2026-12-24, already overridden at event_type.date_overrides[1]' },
  ]);
});

test('the engine refuses unusable rules with a typed 400 listing the problems', () => {
  const window = { from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-06-02T00:00:00Z'), now: new Date(0), bookings: [], busy: [] };
  assert.throws(
    () => slotsInWindow({ ...GOOD, slotIntervalMinutes: 0 }, window),
    (error: unknown) =>
      error instanceof SchedulingRulesError && error.status === 400 && error.problems[0]?.field === 'slot_interval_minutes',
  );
});
