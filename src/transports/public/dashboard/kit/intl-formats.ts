/**
 * Intl's formatters, made once per locale and options and then reused. Making one costs tens of
 * microseconds (it loads the locale's data and resolves the zone); using one costs almost nothing,
 * and a page formats hundreds of dates and amounts: on the revenue page with 50 ledger rows, making
 * them anew was a third of the page's time. Keys are few (a handful of layouts, the workspaces' zones,
 * the ledger's currencies), and the cache starts over if it ever holds more than MAX_KEPT. A locale,
 * zone or currency Intl refuses throws, as the constructor does, and is not kept.
 */

const MAX_KEPT = 1_000;
const kept = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function reuse<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  const found = kept.get(key);
  if (found) return found as T;
  const made = make();
  if (kept.size >= MAX_KEPT) kept.clear();
  kept.set(key, made);
  return made;
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return reuse(`d ${locale} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return reuse(`n ${locale} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}
