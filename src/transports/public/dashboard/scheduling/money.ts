/** Scheduling's values are in minor units (4900 = 49.00 USD), as the kit's formatMoney takes them. */

import { formatMoney, minorUnitDigits } from '../kit/formats.ts';

/** Digits after the point of a currency (JPY 0, USD 2). */
export const minorDigits = minorUnitDigits;

export function formatMinor(amount: number, currency: string): string {
  return formatMoney(amount, currency);
}
