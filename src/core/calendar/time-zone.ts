/** Calendar days in a time zone (IANA name), as 'YYYY-MM-DD', and which zone names are known. */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function localDay(at: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA formats dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(at);
}

/**
 * The IANA zones a workspace (or later a booking page) may be set to: Intl's list of canonical zone
 * names, plus UTC, which the list leaves out. Fixed offsets ('+01:00', 'Etc/GMT+5') are not in it:
 * they ignore daylight saving time, which is almost never what a person setting a zone means.
 */
const KNOWN_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/**
 * The zone's canonical name ('europe/paris' → 'Europe/Paris', 'US/Eastern' → 'America/New_York',
 * 'Etc/UTC' → 'UTC'), or undefined when the name is not a known IANA zone. Names are matched without
 * regard to case, and aliases resolve to the zone they stand for, as Intl does.
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return undefined;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  return KNOWN_ZONES.has(resolved) ? resolved : undefined;
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
