/** Scheduling's values are in minor units (4900 = 49.00 USD); the kit writes major units. */

import { formatMoney } from '../kit/formats.ts';
import { numberFormat } from '../kit/intl-formats.ts';

/** Digits after the point of a currency (JPY 0, USD 2). */
export function minorDigits(currency: string): number {
  try {
    return numberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export function formatMinor(amount: number, currency: string): string {
  return formatMoney(amount / 10 ** minorDigits(currency), currency);
}
