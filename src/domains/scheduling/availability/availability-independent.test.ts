/**
 * An independent check of the slot engine: for a week around each DST change (and a half-hour zone),
 * the candidates and the offered slots are computed a different way — every minute of real time,
 * formatted by Intl into the zone's wall clock, with the rules applied minute by minute — and
 * compared slot by slot with slotsInWindow. Nothing here uses the engine's offsets or hours code.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slotsInWindow } from './availability.ts';
import type { ExistingBooking, HoursInterval, SchedulingRules } from './scheduling-rules.ts';

const MINUTE = 60_000;

function wallClockReader(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const cache = new Map<number, { date: string; minute: number }>();
  return (at: number) => {
    let wall = cache.get(at);
    if (!wall) {
      const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
      wall = { date: `${part.year}-${part.month}-${part.day}`, minute: Number(part.hour) * 60 + Number(part.minute) };
      cache.set(at, wall);
    }
    return wall;
  };
}

const toMinute = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));

/** The offered starts, worked out minute by minute. */
function expectedByMinutes(
  rules: SchedulingRules,
  from: number,
  to: number,
  now: number,
  bookings: ExistingBooking[],
  busy: { start: Date; end: Date }[],
) {
  const wall = wallClockReader(rules.timeZone);
  const hoursOn = (date: string): HoursInterval[] => {
    const override = rules.dateOverrides.find((o) => o.date === date);
    if (override) return [...override.hours];
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay() || 7;
    return [...(rules.weeklyHours[weekday as 1] ?? [])];
  };
  const open = (date: string, minute: number) =>
    hoursOn(date).some((h) => toMinute(h.start) <= minute && minute < (h.end === '24:00' ? 1440 : toMinute(h.end)));
  const today = wall(Math.floor(now / MINUTE) * MINUTE).date;
  const lastDay = new Date(Date.parse(`${today}T00:00:00Z`) + (rules.horizonDays ?? 0) * 86_400_000).toISOString().slice(0, 10);
  const candidates: number[] = [];
  const offered: number[] = [];
  for (let start = from; start < to; start += MINUTE) {
    const { date, minute } = wall(start);
    if (minute % rules.slotIntervalMinutes !== 0) continue;
    candidates.push(start);
    const end = start + rules.durationMinutes * MINUTE;
    if (start < now + rules.minimumNoticeMinutes * MINUTE) continue;
    if (rules.horizonDays !== null && date > lastDay) continue;
    let inside = true;
    for (let t = start; t < end && inside; t += MINUTE) inside = wall(t).date === date && open(date, wall(t).minute);
    if (!inside) continue;
    const widenedFrom = start - rules.bufferBeforeMinutes * MINUTE;
    const widenedTo = end + rules.bufferAfterMinutes * MINUTE;
    const blocked = bookings.some(
      (b) =>
        b.start.getTime() - rules.bufferBeforeMinutes * MINUTE < widenedTo &&
        widenedFrom < b.end.getTime() + rules.bufferAfterMinutes * MINUTE,
    );
    if (blocked) continue;
    const sameDay = bookings.filter((b) => b.countsTowardCap && wall(b.start.getTime()).date === date).length;
    if (rules.dailyCap !== null && sameDay >= rules.dailyCap) continue;
    if (busy.some((b) => b.start.getTime() < end && start < b.end.getTime())) continue;
    offered.push(start);
  }
  return { candidates, offered };
}

const WORKDAY = [
  { start: '01:00', end: '04:00' },
  { start: '09:00', end: '12:00' },
  { start: '12:00', end: '17:30' },
];

const WEEKS: { name: string; from: string; rules: Partial<SchedulingRules>; now: string }[] = [
  { name: 'New York, fall back', from: '2026-10-28T00:00:00Z', now: '2026-10-29T15:05:00Z', rules: { timeZone: 'America/New_York' } },
  { name: 'New York, spring forward', from: '2026-03-05T00:00:00Z', now: '2026-03-04T00:00:00Z', rules: { timeZone: 'America/New_York' } },
  {
    name: 'Berlin, spring forward',
    from: '2026-03-26T00:00:00Z',
    now: '2026-03-27T08:00:00Z',
    rules: { timeZone: 'Europe/Berlin', durationMinutes: 60 },
  },
  {
    name: 'Berlin, fall back',
    from: '2026-10-22T00:00:00Z',
    now: '2026-10-20T00:00:00Z',
    rules: { timeZone: 'Europe/Berlin', durationMinutes: 45, slotIntervalMinutes: 15 },
  },
  {
    name: 'Kolkata, 45-minute slots',
    from: '2026-06-01T00:00:00Z',
    now: '2026-06-02T06:00:00Z',
    rules: { timeZone: 'Asia/Kolkata', durationMinutes: 45, slotIntervalMinutes: 45 },
  },
];

for (const week of WEEKS) {
  test(`a week computed minute by minute matches slotsInWindow slot by slot: ${week.name}`, () => {
    const from = Date.parse(week.from);
    const to = from + 7 * 86_400_000;
    const day = (n: number) => new Date(from + n * 86_400_000).toISOString().slice(0, 10);
    const rules: SchedulingRules = {
      durationMinutes: 30,
      slotIntervalMinutes: 30,
      bufferBeforeMinutes: 15,
      bufferAfterMinutes: 10,
      minimumNoticeMinutes: 90,
      horizonDays: 5,
      dailyCap: 2,
      timeZone: 'UTC',
      weeklyHours: { 1: WORKDAY, 2: WORKDAY, 3: WORKDAY, 4: WORKDAY, 5: WORKDAY, 7: [{ start: '00:30', end: '03:30' }] },
      dateOverrides: [
        { date: day(2), hours: [{ start: '10:00', end: '24:00' }] },
        { date: day(3), hours: [] },
      ],
      ...week.rules,
    };
    const bookings: ExistingBooking[] = [
      {
        id: 'b1',
        start: new Date(from + 2 * 86_400_000 + 14 * 3_600_000),
        end: new Date(from + 2 * 86_400_000 + 15 * 3_600_000),
        countsTowardCap: true,
      },
      {
        id: 'b2',
        start: new Date(from + 4 * 86_400_000 + 13 * 3_600_000),
        end: new Date(from + 4 * 86_400_000 + 13.5 * 3_600_000),
        countsTowardCap: true,
      },
      {
        id: 'b3',
        start: new Date(from + 4 * 86_400_000 + 16 * 3_600_000),
        end: new Date(from + 4 * 86_400_000 + 16.5 * 3_600_000),
        countsTowardCap: true,
      },
      {
        id: 'b4',
        start: new Date(from + 1 * 86_400_000 + 18 * 3_600_000),
        end: new Date(from + 1 * 86_400_000 + 19 * 3_600_000),
        countsTowardCap: false,
      },
    ];
    const busy = [{ start: new Date(from + 86_400_000 + 6 * 3_600_000), end: new Date(from + 86_400_000 + 8 * 3_600_000), feed: 'ics' }];
    const now = Date.parse(week.now);

    const expected = expectedByMinutes(rules, from, to, now, bookings, busy);
    const actual = slotsInWindow(rules, { from: new Date(from), to: new Date(to), now: new Date(now), bookings, busy });
    const iso = (list: number[]) => list.map((at) => new Date(at).toISOString());
    assert.deepEqual(iso(actual.map((s) => s.start.getTime())), iso(expected.candidates), 'the same candidates');
    assert.deepEqual(iso(actual.filter((s) => s.offered).map((s) => s.start.getTime())), iso(expected.offered), 'the same offered slots');
    assert.ok(expected.offered.length > 20, 'the week offers slots');
    assert.ok(actual.some((s) => !s.offered && s.reasons.length > 0));
  });
}
