/** Calendar days in a time zone (IANA name), as 'YYYY-MM-DD', and which zone names are known. */
import { keptAnswers } from '../values/kept-answers.ts';

const dayFormatters = keptAnswers<Intl.DateTimeFormat>(2_000);

export function localDay(at: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  const formatter = dayFormatters(
    timeZone,
    () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  );
  return formatter.format(at);
}

/**
 * The IANA zones a workspace (or later a booking page) may be set to: Intl's list of canonical zone
 * names, plus UTC, which the list leaves out. Fixed offsets ('+01:00', 'Etc/GMT+5') are not in it:
 * they ignore daylight saving time, which is almost never what a person setting a zone means.
 */
const KNOWN_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/**
 * The zone's name as stored and shown, or undefined when the name is not a known IANA zone. Names are
 * matched without regard to case, as Intl does ('europe/paris' → 'Europe/Paris', 'Etc/UTC' → 'UTC').
 * Aliases from another area resolve to the zone they stand for ('US/Eastern' → 'America/New_York').
 * A city renamed within its area keeps the caller's spelling, cased like IANA's: ICU still resolves
 * IANA's current names to the old ones CLDR keeps ('Asia/Kolkata' → 'Asia/Calcutta', 'Europe/Kyiv'
 * → 'Europe/Kiev'), and a workspace that says Kolkata must read Kolkata back.
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return undefined;
  // Every zone-bearing input is checked with this, and asking Intl costs a formatter (an exception for
  // an unknown name): answers are kept, the known zones' few spellings and whatever unknown names
  // arrive, starting over past 2,000 names so no caller can grow it without bound.
  return answers(name, () => resolveTimeZone(name));
}

const answers = keptAnswers<string | undefined>(2_000);

function resolveTimeZone(name: string): string | undefined {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  if (!KNOWN_ZONES.has(resolved)) return undefined;
  // A rename within its area (Asia/Calcutta → Asia/Kolkata) keeps the caller's name; an alias from
  // another area (US/Eastern, Etc/UTC) is read as the zone it stands for (America/New_York, UTC).
  const area = (zone: string) => zone.split('/')[0]?.toLowerCase();
  const renamed = /^[A-Za-z][A-Za-z_-]*(\/[A-Za-z][A-Za-z_-]*)+$/.test(name) && area(name) === area(resolved) && resolved.includes('/');
  if (!renamed || name.toLowerCase() === resolved.toLowerCase()) return resolved;
  const resolvedSegments = resolved.split('/');
  return name
    .split('/')
    .map((segment, index) =>
      segment.toLowerCase() === resolvedSegments[index]?.toLowerCase()
        ? (resolvedSegments[index] as string)
        : segment
            .toLowerCase()
            .replace(/(^|[_-])([a-z])/g, (_match, separator: string, letter: string) => separator + letter.toUpperCase()),
    )
    .join('/');
}

/** Whether a string names a known IANA time zone (the `time-zone` format of input schemas). */
export function isTimeZone(name: string): boolean {
  return canonicalTimeZone(name) !== undefined;
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at this instant, in milliseconds (whole seconds). */
export function utcOffsetMs(at: number, timeZone: string): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(at)) parts[part.type] = part.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(at / 1000) * 1000;
}
