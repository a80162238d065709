/**
 * The two writers of zoned times agree: ZonedTimes (a ZoneClock read once for a span) writes every
 * instant as zonedIso (Intl per instant) does, across both daylight-saving changes of New York and
 * Berlin and in half- and quarter-hour zones.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ZonedTimes, zonedIso } from './zoned-time.ts';

test('ZonedTimes writes every instant of a span as zonedIso does', () => {
  const spans: [string, string, string][] = [
    ['America/New_York', '2027-03-13T00:00:00Z', '2027-03-15T00:00:00Z'],
    ['America/New_York', '2027-11-06T00:00:00Z', '2027-11-08T00:00:00Z'],
    ['Europe/Berlin', '2027-03-27T00:00:00Z', '2027-03-29T00:00:00Z'],
    ['Asia/Kolkata', '2027-03-01T00:00:00Z', '2027-03-02T00:00:00Z'],
    ['Asia/Kathmandu', '2027-03-01T00:00:00Z', '2027-03-02T00:00:00Z'],
  ];
  for (const [zone, from, to] of spans) {
    const times = new ZonedTimes(zone, new Date(from), new Date(to));
    for (let at = new Date(from).getTime(); at < new Date(to).getTime(); at += 5 * 60_000) {
      assert.equal(times.iso(new Date(at)), zonedIso(new Date(at), zone), `${zone} ${new Date(at).toISOString()}`);
    }
  }
  assert.equal(
    new ZonedTimes('America/New_York', new Date('2027-03-14T00:00:00Z'), new Date('2027-03-15T00:00:00Z')).iso(
      new Date('2027-03-14T07:00:00Z'),
    ),
    '2027-03-14T03:00:00-04:00',
  );
});
