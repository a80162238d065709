/**
 * Wall clock ↔ instant through Intl-read offsets: the gap and the overlap of New York's and Berlin's
 * DST days, a half-hour zone, and labels that tell the two 01:30s of a fall-back night apart.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { utcOffsetMs } from '../../../core/calendar/time-zone.ts';
import { clockText, isoWeekdayOf, offsetText, ZoneClock } from './local-time.ts';

const DAY = 86_400_000;
const clockAround = (zone: string, iso: string) => new ZoneClock(zone, Date.parse(iso) - 3 * DAY, Date.parse(iso) + 3 * DAY);
const iso = (instants: number[]) => instants.map((at) => new Date(at).toISOString());

test('a local time in a spring-forward gap has no instant; the times around it have one each', () => {
  const newYork = clockAround('America/New_York', '2026-03-08T12:00:00Z');
  assert.deepEqual(iso(newYork.instantsOf('2026-03-08', 90)), ['2026-03-08T06:30:00.000Z']);
  assert.deepEqual(newYork.instantsOf('2026-03-08', 120), []);
  assert.deepEqual(newYork.instantsOf('2026-03-08', 150), []);
  assert.deepEqual(iso(newYork.instantsOf('2026-03-08', 180)), ['2026-03-08T07:00:00.000Z']);
  const berlin = clockAround('Europe/Berlin', '2026-03-29T12:00:00Z');
  assert.deepEqual(berlin.instantsOf('2026-03-29', 150), []);
  assert.deepEqual(iso(berlin.instantsOf('2026-03-29', 180)), ['2026-03-29T01:00:00.000Z']);
});

test('a local time in a fall-back overlap has two instants, earliest first', () => {
  const newYork = clockAround('America/New_York', '2026-11-01T12:00:00Z');
  assert.deepEqual(iso(newYork.instantsOf('2026-11-01', 90)), ['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z']);
  assert.deepEqual(iso(newYork.instantsOf('2026-11-01', 120)), ['2026-11-01T07:00:00.000Z']);
  const berlin = clockAround('Europe/Berlin', '2026-10-25T12:00:00Z');
  assert.deepEqual(iso(berlin.instantsOf('2026-10-25', 150)), ['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z']);
  assert.equal(newYork.label(Date.parse('2026-11-01T05:30:00Z')), '2026-11-01 01:30 (UTC-04:00)');
  assert.equal(newYork.label(Date.parse('2026-11-01T06:30:00Z')), '2026-11-01 01:30 (UTC-05:00)');
});

test('the clock agrees with Intl at every quarter hour of both changes, and in a half-hour zone', () => {
  for (const [zone, at] of [
    ['America/New_York', '2026-03-08T00:00:00Z'],
    ['America/New_York', '2026-11-01T00:00:00Z'],
    ['Europe/Berlin', '2026-03-28T12:00:00Z'],
    ['Europe/Berlin', '2026-10-24T12:00:00Z'],
    ['Asia/Kolkata', '2026-06-01T00:00:00Z'],
  ] as const) {
    const clock = clockAround(zone, at);
    for (let t = Date.parse(at); t < Date.parse(at) + DAY; t += 15 * 60_000)
      assert.equal(clock.offsetAt(t), utcOffsetMs(t, zone), `${zone} ${new Date(t).toISOString()}`);
  }
  const kolkata = clockAround('Asia/Kolkata', '2026-06-01T00:00:00Z');
  assert.deepEqual(iso(kolkata.instantsOf('2026-06-01', 9 * 60)), ['2026-06-01T03:30:00.000Z']);
  assert.deepEqual(kolkata.wallClockAt(Date.parse('2026-05-31T18:29:00Z')), {
    day: '2026-05-31',
    msOfDay: (23 * 60 + 59) * 60_000,
    offsetMs: 19_800_000,
  });
  assert.equal(offsetText(kolkata.offsetAt(0)), '+05:30');
});

test('ranges of wall-clock hours follow the day: shorter across a gap, longer across an overlap', () => {
  const newYork = clockAround('America/New_York', '2026-11-01T12:00:00Z');
  // 00:00–01:30 on the fall-back night: the first 00:00–01:30 (EDT), then the second 01:00–01:30 (EST).
  assert.deepEqual(
    newYork.rangesOf('2026-11-01', 0, 90).map(([from, to]) => iso([from, to])),
    [
      ['2026-11-01T04:00:00.000Z', '2026-11-01T05:30:00.000Z'],
      ['2026-11-01T06:00:00.000Z', '2026-11-01T06:30:00.000Z'],
    ],
  );
  const spring = clockAround('America/New_York', '2026-03-08T12:00:00Z');
  // 02:30–05:00 starts when the clock jumps to 03:00.
  assert.deepEqual(
    spring.rangesOf('2026-03-08', 150, 300).map(([from, to]) => iso([from, to])),
    [['2026-03-08T07:00:00.000Z', '2026-03-08T09:00:00.000Z']],
  );
});

test('weekdays are ISO (Monday 1, Sunday 7) and clock text is HH:MM', () => {
  assert.deepEqual(['2026-03-08', '2026-03-09', '2026-03-14'].map(isoWeekdayOf), [7, 1, 6]);
  assert.deepEqual([clockText(0), clockText(9 * 3_600_000 + 30 * 60_000 + 59_000)], ['00:00', '09:30']);
  assert.equal(offsetText(-4 * 3_600_000), '-04:00');
});
