/**
 * ISO 4217 currency codes, as the runtime knows them (Intl.supportedValuesOf('currency'), kept up to
 * date with Node's ICU data), so an amount is never stored in a currency that does not exist. Codes
 * are accepted in any case and stored upper case, as Stripe sends them lower case.
 */

const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** The `currency` format of input schemas (schemas.ts Currency): three letters naming a real currency. */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Za-z]{3}$/.test(code) && KNOWN_CURRENCIES.has(code.toUpperCase());
}
