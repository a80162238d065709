/** Calendar days and time zones: arithmetic across DST and leap days, local days, known zones. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addDays, daySpan, eachDay, startOfLocalDay } from './calendar-days.ts';
import { canonicalTimeZone, isTimeZone, localDay } from './time-zone.ts';

test('calendar days: stepping across months and leap days, spans, and where a local day starts', () => {
  assert.equal(addDays('2028-02-28', 1), '2028-02-29');
  assert.equal(addDays('2026-03-01', -1), '2026-02-28');
  assert.equal(addDays('2026-12-31', 1), '2027-01-01');
  assert.deepEqual([daySpan('2026-01-01', '2026-01-01'), daySpan('2025-06-15', '2026-06-15')], [1, 366]);
  assert.deepEqual(eachDay('2026-02-27', '2026-03-02'), ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  assert.deepEqual(eachDay('2026-03-02', '2026-03-01'), []);
  assert.equal(startOfLocalDay('2026-07-01', 'UTC').toISOString(), '2026-07-01T00:00:00.000Z');
  assert.equal(startOfLocalDay('2026-01-15', 'America/New_York').toISOString(), '2026-01-15T05:00:00.000Z');
  assert.equal(startOfLocalDay('2026-07-15', 'America/New_York').toISOString(), '2026-07-15T04:00:00.000Z');
  // The days clocks change: New York springs forward at 02:00, Sydney's midnight is UTC+11 in January.
  assert.equal(startOfLocalDay('2026-03-08', 'America/New_York').toISOString(), '2026-03-08T05:00:00.000Z');
  assert.equal(startOfLocalDay('2026-03-09', 'America/New_York').toISOString(), '2026-03-09T04:00:00.000Z');
  assert.equal(startOfLocalDay('2026-01-10', 'Australia/Sydney').toISOString(), '2026-01-09T13:00:00.000Z');
  assert.equal(startOfLocalDay('2026-06-10', 'Asia/Kolkata').toISOString(), '2026-06-09T18:30:00.000Z');
});

test('local days follow the workspace time zone', () => {
  const at = new Date('2026-03-01T03:30:00Z');
  assert.equal(localDay(at, 'UTC'), '2026-03-01');
  assert.equal(localDay(at, 'America/New_York'), '2026-02-28');
  assert.equal(localDay(new Date('2026-02-28T23:30:00Z'), 'Asia/Tokyo'), '2026-03-01');
  assert.deepEqual([isTimeZone('Europe/Paris'), isTimeZone('Mars/Olympus'), isTimeZone('UTC')], [true, false, true]);
});

test('known zones: IANA names in any case and their aliases, canonically named; no fixed offsets', () => {
  const cases: [string, string | undefined][] = [
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['europe/paris', 'Europe/Paris'],
    ['US/Eastern', 'America/New_York'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['EUROPE/KYIV', 'Europe/Kyiv'],
    ['America/Los_Angeles', 'America/Los_Angeles'],
    ['Mars/Olympus', undefined],
    ['+01:00', undefined],
    ['Etc/GMT+5', undefined],
    ['', undefined],
    ['Europe/Paris'.repeat(10), undefined],
  ];
  for (const [name, canonical] of cases) assert.equal(canonicalTimeZone(name), canonical, name);
  // Every zone Intl lists is known under its own name.
  for (const zone of Intl.supportedValuesOf('timeZone')) assert.equal(canonicalTimeZone(zone), zone);
});

test('zone answers are kept: asking again, in any case, gives the same answer, known or not', () => {
  for (let round = 0; round < 2; round++) {
    assert.equal(canonicalTimeZone('europe/paris'), 'Europe/Paris');
    assert.equal(canonicalTimeZone('Asia/Kolkata'), 'Asia/Kolkata');
    assert.equal(canonicalTimeZone('Mars/Olympus'), undefined);
    assert.equal(isTimeZone('US/Eastern'), true);
  }
  // Far more distinct names than are kept: each still answered as Intl says.
  for (let i = 0; i < 2_500; i++) assert.equal(canonicalTimeZone(`Nowhere/Place_${i}`), undefined);
  assert.equal(canonicalTimeZone('UTC'), 'UTC');
});
