/**
 * Shapes the ledger operations share: the entry (the OutcomeSnapshot events carry too) and the
 * per-currency totals of a filter.
 */
import { Type } from 'typebox';
import { OutcomeSnapshot } from './outcomes.events.ts';

export { OutcomeSnapshot as Outcome };

/** Amounts are bounded well past any real payment (10 billion in major units), inside a double's exact integers. */
export const MAX_AMOUNT = 1_000_000_000_000;

const Money = (description: string) => Type.Integer({ description });

export const CurrencyTotal = Type.Object(
  {
    currency: Type.String({ description: 'ISO 4217 code, upper case.' }),
    count: Type.Integer({ minimum: 0, description: 'Entries in this currency matching the filters, of every kind and status.' }),
    purchases: Money('Succeeded purchases, in minor units.'),
    refunds: Money('Succeeded refunds, in minor units.'),
    net: Money('purchases minus refunds; booked calls are counted in count but carry no money.'),
  },
  { additionalProperties: false },
);

export const OutcomeTotals = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'Entries matching the filters, on every page.' }),
    by_currency: Type.Array(CurrencyTotal, { description: 'One line per currency, A→Z; amounts are never added across currencies.' }),
  },
  { additionalProperties: false, description: 'Totals over every entry the filters match, not only this page.' },
);
