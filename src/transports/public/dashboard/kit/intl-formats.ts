/**
 * Intl's formatters, made once per locale and options and then reused. Making one costs tens of
 * microseconds (it loads the locale's data and resolves the zone); using one costs almost nothing,
 * and a page formats hundreds of dates and amounts: on the revenue page with 50 ledger rows, making
 * them anew was a third of the page's time. Keys are few (a handful of layouts, the workspaces' zones,
 * the ledger's currencies), and the cache starts over if it ever holds more than 1,000. A locale,
 * zone or currency Intl refuses throws, as the constructor does, and is not kept.
 */

import { keptAnswers } from '../../../../core/values/kept-answers.ts';

const dateTimeFormats = keptAnswers<Intl.DateTimeFormat>(1_000);
const numberFormats = keptAnswers<Intl.NumberFormat>(1_000);

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return dateTimeFormats(`${locale} ${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return numberFormats(`${locale} ${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));
}
