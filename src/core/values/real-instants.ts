/**
 * The `date`, `date-time` and `uuid` formats every input is checked against. ajv-formats' own
 * versions let through text the rest of the service cannot use: a leap second (`23:59:60`), which a
 * JavaScript Date cannot hold, became an invalid date inside a handler; year 0000 is no year to
 * PostgreSQL; JavaScript reads `2030-02-30` as March 2nd; `urn:uuid:` ids are no uuid to PostgreSQL.
 * Here a date or date-time passes only when it names a real instant that Date reads back as exactly
 * the calendar day and clock time written, in the years 1970 to 9999 (in UTC too), so
 * `new Date(value)` in a handler is always valid and storable.
 */

export const EARLIEST_YEAR = 1970;
export const LATEST_YEAR = 9999;

const FIRST_INSTANT = Date.UTC(EARLIEST_YEAR, 0, 1);
/**
 * The last instant an input can name, and so the last the service stores (ms since the epoch). An
 * instant after it is in year 10000, which JavaScript writes in its extended form (`+010000-…`) and
 * PostgreSQL refuses ("time zone displacement out of range").
 */
export const LAST_INSTANT = Date.UTC(LATEST_YEAR, 11, 31, 23, 59, 59, 999);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 (its `t`, `z` and space separator included, which Date also reads), offset required.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** `YYYY-MM-DD` naming a day that exists, in the years 1970 to 9999. */
export function isRealDate(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && isCalendarDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** An RFC 3339 date-time with a time zone, naming a real instant: no leap second, no 24:00, no February 30th. */
export function isRealDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null) return false;
  const [year, month, day, hour, minute, second, offsetHours = 0, offsetMinutes = 0] = match.slice(1).map((part) => Number(part ?? 0));
  if (!isCalendarDay(year as number, month as number, day as number)) return false;
  if ((hour as number) > 23 || (minute as number) > 59 || (second as number) > 59) return false;
  if (offsetHours > 23 || offsetMinutes > 59) return false;
  // The instant too, not only the text: 9999-12-31T23:59:59-23:59 is in year 10000 in UTC.
  const instant = Date.parse(text);
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT;
}

/** A UUID written as 8-4-4-4-12 hexadecimal digits, the one form PostgreSQL and our ids share. */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  if (year < EARLIEST_YEAR || year > LATEST_YEAR) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
