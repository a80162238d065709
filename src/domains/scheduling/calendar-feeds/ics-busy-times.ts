/**
 * The busy times an iCalendar feed shows within a window, recurring events expanded with ical.js:
 * RRULE, RDATE and EXDATE by its recurrence expansion; RECURRENCE-ID exceptions here, each replacing
 * the occurrence it names (moved: its own times; STATUS:CANCELLED: nothing). Events marked
 * TRANSP:TRANSPARENT (free) or STATUS:CANCELLED block nothing. All-day events (DATE values) block
 * whole local days of the workspace's zone; times convert as ics-zones.ts says.
 *
 * Bounded: each recurring event may take MAX_STEPS_PER_EVENT steps of expansion, and the answer may
 * hold MAX_BUSY_TIMES intervals; past either the feed is refused with a sentence saying why. Some
 * rules make one ical.js step spin forever (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30), which no count can
 * stop: callers run this in a child process with a deadline (ics-reader.ts), never on the main thread.
 */
import ICAL from 'ical.js';
import { FeedZones, TooManyZonesError, type WallMs, wallMsOf } from './ics-zones.ts';

const DAY_MS = 86_400_000;
/** Wall clocks run at most 14 hours ahead of UTC or 12 behind; a day's margin covers either. */
const WALL_MARGIN_MS = DAY_MS;
export const MAX_BUSY_TIMES = 20_000;
export const MAX_STEPS_PER_EVENT = 100_000;
const MAX_SUMMARY_LENGTH = 200;

export interface FeedBusyTime {
  start: number;
  end: number;
  summary: string | null;
}

export interface FeedWindow {
  /** The workspace's zone: floating times and all-day events are its wall clock. */
  timeZone: string;
  /** [from, to): busy times overlapping it are kept (instants). */
  from: number;
  to: number;
}

/** The feed cannot be used; the message is a sentence for the workspace (calendar_feeds.last_error). */
export class FeedReadError extends Error {}

export function busyTimesOf(text: string, window: FeedWindow): FeedBusyTime[] {
  const calendars = parseCalendars(text);
  const definitions = new Map<string, ICAL.Component>();
  const events: ICAL.Component[] = [];
  for (const calendar of calendars) {
    // Taken out of the tree so ical.js never reads a VTIMEZONE on its own: ics-zones.ts decides which to trust.
    for (const zone of calendar.getAllSubcomponents('vtimezone')) {
      const tzid = zone.getFirstPropertyValue('tzid');
      if (typeof tzid === 'string') definitions.set(tzid, zone);
      calendar.removeSubcomponent(zone);
    }
    events.push(...calendar.getAllSubcomponents('vevent'));
  }
  try {
    return new Expansion(new FeedZones(window.timeZone, definitions, window.from, window.to), window).run(events);
  } catch (error) {
    if (error instanceof TooManyZonesError) throw new FeedReadError(error.message);
    throw error;
  }
}

function parseCalendars(text: string): ICAL.Component[] {
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR\r?\n/i.test(body)) {
    throw new FeedReadError(
      'The link did not return an iCalendar feed (it should start with BEGIN:VCALENDAR); check that it is the calendar’s ICS address.',
    );
  }
  let parsed: unknown;
  try {
    parsed = ICAL.parse(body);
  } catch (error) {
    throw new FeedReadError(`The feed is not valid iCalendar: ${shortened(error instanceof Error ? error.message : String(error))}.`);
  }
  // One VCALENDAR parses to its jCal; several to a list of them.
  const list = (Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed : [parsed]) as unknown[][];
  return list.map((jcal) => new ICAL.Component(jcal));
}

class Expansion {
  private readonly busy: FeedBusyTime[] = [];
  /** Occurrences an exception replaces: by UID, the instants their RECURRENCE-IDs name. */
  private readonly replaced = new Map<string, Set<number>>();

  private readonly zones: FeedZones;
  private readonly window: FeedWindow;

  constructor(zones: FeedZones, window: FeedWindow) {
    this.zones = zones;
    this.window = window;
  }

  run(components: ICAL.Component[]): FeedBusyTime[] {
    const masters: ICAL.Event[] = [];
    for (const component of components) {
      const event = new ICAL.Event(component);
      if (!(event.component.getFirstPropertyValue('dtstart') instanceof ICAL.Time)) continue; // not an event that happens
      if (!event.isRecurrenceException()) {
        masters.push(event);
        continue;
      }
      const original = this.instantOf(event.recurrenceId, event.component.getFirstProperty('recurrence-id'));
      const uid = event.uid ?? '';
      const set = this.replaced.get(uid) ?? new Set<number>();
      set.add(original);
      this.replaced.set(uid, set);
      this.addEvent(event);
    }
    for (const master of masters) this.addEvent(master);
    return this.busy.sort((a, b) => a.start - b.start || a.end - b.end);
  }

  private addEvent(event: ICAL.Event): void {
    if (!blocksTime(event.component)) return;
    const length = lengthOf(event, this.zones);
    if (length === undefined) return;
    const summary = summaryOf(event.summary);
    if (!event.isRecurring() || event.isRecurrenceException()) {
      this.addOccurrence(event.startDate, event.component.getFirstProperty('dtstart'), length, summary);
      return;
    }
    this.expand(event, length, summary);
  }

  private expand(event: ICAL.Event, length: Length, summary: string | null): void {
    const dtstart = event.component.getFirstProperty('dtstart');
    const replaced = this.replaced.get(event.uid ?? '') ?? new Set<number>();
    const excluded = this.exceptionDates(event.component);
    const lastWall = this.window.to + WALL_MARGIN_MS;
    const firstWall = this.window.from - WALL_MARGIN_MS - length.spanMs;
    let iterator: ICAL.RecurExpansion;
    try {
      iterator = event.iterator();
      for (let steps = 1; ; steps++) {
        if (steps > MAX_STEPS_PER_EVENT) {
          throw new FeedReadError(
            `The event “${summary ?? event.uid ?? 'without a title'}” repeats more than ${MAX_STEPS_PER_EVENT.toLocaleString('en-US')} times ` +
              `before ${new Date(this.window.to).toISOString().slice(0, 10)}, too often to expand.`,
          );
        }
        const occurrence = iterator.next();
        if (!occurrence) return;
        const wall = wallMsOf(occurrence);
        if (wall >= lastWall) return; // occurrences come in order: the rest start later still
        if (wall < firstWall) continue;
        const start = this.instantOf(occurrence, dtstart);
        if (replaced.has(start) || excluded.has(start)) continue;
        this.addOccurrence(occurrence, dtstart, length, summary);
      }
    } catch (error) {
      if (error instanceof FeedReadError) throw error;
      const why = shortened(error instanceof Error ? error.message : String(error));
      throw new FeedReadError(`The event “${summary ?? event.uid ?? 'without a title'}” has a repeat rule that cannot be read: ${why}.`);
    }
  }

  private addOccurrence(start: ICAL.Time, property: ICAL.Property | null, length: Length, summary: string | null): void {
    const from = this.instantOf(start, property);
    const to = start.isDate ? this.zones.dayStartOf(wallMsOf(start) + length.days * DAY_MS) : from + length.ms;
    if (to <= from || to <= this.window.from || from >= this.window.to) return;
    if (this.busy.length >= MAX_BUSY_TIMES) {
      throw new FeedReadError(
        `The feed has more than ${MAX_BUSY_TIMES.toLocaleString('en-US')} busy times between ` +
          `${new Date(this.window.from).toISOString().slice(0, 10)} and ${new Date(this.window.to).toISOString().slice(0, 10)}, the most that are kept.`,
      );
    }
    this.busy.push({ start: from, end: to, summary });
  }

  /** EXDATEs as instants, besides ical.js's own check, which compares wall clocks and misses a UTC EXDATE of a zoned series. */
  private exceptionDates(component: ICAL.Component): Set<number> {
    const dates = new Set<number>();
    for (const property of component.getAllProperties('exdate')) {
      for (const value of property.getValues()) if (value instanceof ICAL.Time) dates.add(this.instantOf(value, property));
    }
    return dates;
  }

  private instantOf(time: ICAL.Time, property: ICAL.Property | null): number {
    const wall: WallMs = wallMsOf(time);
    if (time.isDate) return this.zones.dayStartOf(wall);
    if (time.zone === ICAL.Timezone.utcTimezone) return wall;
    return this.zones.instantOf(wall, tzidOf(property));
  }
}

/** How long each occurrence lasts: whole days for all-day events, milliseconds otherwise. */
interface Length {
  days: number;
  ms: number;
  /** An upper bound of its span, to tell occurrences that end before the window from their wall clock alone. */
  spanMs: number;
}

/** From DTEND (in its own zone), else DURATION, else RFC 5545's default: one day for a date, nothing for a time. */
function lengthOf(event: ICAL.Event, zones: FeedZones): Length | undefined {
  const start = event.startDate;
  const endProperty = event.component.getFirstProperty('dtend');
  const end = endProperty?.getFirstValue();
  const duration = event.component.getFirstPropertyValue('duration');
  if (start.isDate) {
    let days = 1;
    if (end instanceof ICAL.Time) days = Math.round((wallMsOf(end) - wallMsOf(start)) / DAY_MS);
    else if (duration instanceof ICAL.Duration) days = Math.ceil(duration.toSeconds() / 86_400);
    return days > 0 ? { days, ms: days * DAY_MS, spanMs: (days + 1) * DAY_MS } : undefined;
  }
  let ms = 0;
  if (end instanceof ICAL.Time) {
    const startAt =
      start.zone === ICAL.Timezone.utcTimezone
        ? wallMsOf(start)
        : zones.instantOf(wallMsOf(start), tzidOf(event.component.getFirstProperty('dtstart')));
    const endAt = end.isDate
      ? zones.dayStartOf(wallMsOf(end))
      : end.zone === ICAL.Timezone.utcTimezone
        ? wallMsOf(end)
        : zones.instantOf(wallMsOf(end), tzidOf(endProperty));
    ms = endAt - startAt;
  } else if (duration instanceof ICAL.Duration) {
    ms = duration.toSeconds() * 1000;
  }
  return ms > 0 ? { days: 0, ms, spanMs: ms } : undefined;
}

function blocksTime(component: ICAL.Component): boolean {
  const transparency = component.getFirstPropertyValue('transp');
  const status = component.getFirstPropertyValue('status');
  return String(transparency ?? '').toUpperCase() !== 'TRANSPARENT' && String(status ?? '').toUpperCase() !== 'CANCELLED';
}

function tzidOf(property: ICAL.Property | null): string | null {
  const tzid = property?.getParameter('tzid');
  return typeof tzid === 'string' && tzid.length > 0 ? tzid : null;
}

/** One line, without control characters, at most MAX_SUMMARY_LENGTH characters; null when empty. */
function summaryOf(summary: unknown): string | null {
  if (typeof summary !== 'string') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const line = summary.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ').trim();
  return line === '' ? null : Array.from(line).slice(0, MAX_SUMMARY_LENGTH).join('');
}

function shortened(text: string): string {
  const line = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '');
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
