/**
 * The instant an iCalendar wall-clock time stands for, given its TZID.
 *
 * - A TZID that names an IANA zone (Google's feeds, and Lightning's "/mozilla.org/…/Europe/Berlin")
 *   is read through Intl, never through the feed's own VTIMEZONE: Intl's rules are the real ones.
 * - Any other TZID ("W. Europe Standard Time", as Outlook writes) is read from the feed's VTIMEZONE
 *   by ical.js, but only when its rules repeat yearly: a VTIMEZONE with a SECONDLY rule would make
 *   ical.js expand it forever.
 * - Floating times, and TZIDs nobody defines, are the workspace's wall clock.
 *
 * RFC 5545 §3.3.5: a time in a spring-forward gap uses the offset before the gap (02:30 → 03:30
 * daylight time); a time a fall-back night shows twice is its first occurrence.
 */
import ICAL from 'ical.js';
import { canonicalTimeZone } from '../../../core/calendar/time-zone.ts';
import { ZoneClock } from '../availability/local-time.ts';

const HOUR_MS = 3_600_000;
/** No zone changes its offset twice within this long, so the offsets this far either side bound a wall time's. */
const NEIGHBOUR_MS = 26 * HOUR_MS;
/** A hostile feed could name every zone there is; each costs a ZoneClock of Intl calls. */
export const MAX_ZONES_PER_FEED = 100;

/** What a property's value shows: its wall clock, 'YYYY-MM-DD HH:MM:SS' on the UTC scale ("wall ms"). */
export type WallMs = number;

export function wallMsOf(time: ICAL.Time): WallMs {
  return Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
}

type OffsetAt = (instant: number) => number;

export class FeedZones {
  private readonly workspaceZone: OffsetAt;
  private readonly byTzid = new Map<string, OffsetAt>();
  private readonly definitions: Map<string, ICAL.Component>;
  private readonly from: number;
  private readonly to: number;
  private clocks = 0;

  /** `definitions`: the feed's VTIMEZONE components by TZID; [from, to): where conversions must be exact. */
  constructor(workspaceTimeZone: string, definitions: Map<string, ICAL.Component>, from: number, to: number) {
    this.definitions = definitions;
    this.from = from;
    this.to = to;
    this.workspaceZone = this.clockOf(workspaceTimeZone);
  }

  /** The instant of a wall-clock time written with this TZID (null: floating). */
  instantOf(wall: WallMs, tzid: string | null): number {
    return instantOfWall(wall, tzid === null ? this.workspaceZone : this.zoneOf(tzid));
  }

  /** The instant a local day (a DATE value, on the wall scale) begins in the workspace's zone. */
  dayStartOf(wall: WallMs): number {
    return instantOfWall(wall, this.workspaceZone);
  }

  private zoneOf(tzid: string): OffsetAt {
    let zone = this.byTzid.get(tzid);
    if (!zone) {
      const iana = ianaZoneOf(tzid);
      const definition = this.definitions.get(tzid);
      if (iana) zone = this.clockOf(iana);
      else if (definition && repeatsYearlyAtMost(definition)) zone = definedZone(tzid, definition);
      else zone = this.workspaceZone;
      this.byTzid.set(tzid, zone);
    }
    return zone;
  }

  private clockOf(timeZone: string): OffsetAt {
    if (++this.clocks > MAX_ZONES_PER_FEED) throw new TooManyZonesError();
    const clock = new ZoneClock(timeZone, this.from - 2 * NEIGHBOUR_MS, this.to + 2 * NEIGHBOUR_MS);
    return (instant) => clock.offsetAt(instant);
  }
}

export class TooManyZonesError extends Error {
  constructor() {
    super(`The feed uses more than ${MAX_ZONES_PER_FEED} time zones.`);
  }
}

/**
 * The wall time minus the offset that holds then: the offsets a day either side are the candidates;
 * both valid is a fall-back overlap (the earlier instant), neither a spring-forward gap (the offset before).
 */
function instantOfWall(wall: WallMs, offsetAt: OffsetAt): number {
  const before = offsetAt(wall - NEIGHBOUR_MS);
  const after = offsetAt(wall + NEIGHBOUR_MS);
  const valid = [before, after].filter((offset) => offsetAt(wall - offset) === offset).map((offset) => wall - offset);
  return valid.length === 0 ? wall - before : Math.min(...valid);
}

/** The IANA zone a TZID names, itself or as the tail of a prefixed one ("/mozilla.org/20050126_1/America/New_York"). */
function ianaZoneOf(tzid: string): string | undefined {
  const segments = tzid.split('/').filter(Boolean).slice(-4);
  for (let i = 0; i < segments.length; i++) {
    const zone = canonicalTimeZone(segments.slice(i).join('/'));
    if (zone) return zone;
  }
  return undefined;
}

/** Whether every rule of a VTIMEZONE repeats yearly (or it has none): how real zones are written. */
function repeatsYearlyAtMost(definition: ICAL.Component): boolean {
  return definition.getAllSubcomponents().every((part) =>
    part.getAllProperties('rrule').every((rule) => {
      const value = rule.getFirstValue();
      return value instanceof ICAL.Recur && value.freq === 'YEARLY';
    }),
  );
}

function definedZone(tzid: string, definition: ICAL.Component): OffsetAt {
  const zone = new ICAL.Timezone({ component: definition, tzid });
  // fromJSDate(…, true) reads the instant in UTC; converted, it is the zone's wall clock then.
  return (instant) => zone.utcOffset(ICAL.Time.fromJSDate(new Date(instant), true).convertToZone(zone)) * 1000;
}
