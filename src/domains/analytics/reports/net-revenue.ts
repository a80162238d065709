/**
 * Revenue as the analytics operations report it: per currency (amounts in different currencies are
 * never added or converted), net = succeeded purchases − succeeded refunds, in minor units, so a
 * period whose refunds outweigh its sales shows a negative net. Booked calls are counted, not
 * valued. Pure.
 */
import { changePercent } from '../../../core/values/reported-numbers.ts';
import type { OutcomeBucket } from '../../outcomes/index.ts';

export interface NetRevenue {
  currency: string;
  /** purchased − refunded. */
  value: number;
  purchased: number;
  refunded: number;
}

export interface RevenueChange {
  currency: string;
  value: number;
  previous: number;
  change_percent: number | null;
}

/** Net revenue per currency over the buckets that `within` accepts, by currency code. */
export function netRevenue(entries: readonly OutcomeBucket[], within: (bucket: number) => boolean = () => true): NetRevenue[] {
  const byCurrency = new Map<string, NetRevenue>();
  for (const entry of entries) {
    if (entry.kind === 'booked_call' || !within(entry.bucket)) continue;
    let revenue = byCurrency.get(entry.currency);
    if (!revenue) {
      revenue = { currency: entry.currency, value: 0, purchased: 0, refunded: 0 };
      byCurrency.set(entry.currency, revenue);
    }
    if (entry.kind === 'purchase') revenue.purchased += entry.amount;
    else revenue.refunded += entry.amount;
    revenue.value = revenue.purchased - revenue.refunded;
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * Net revenue per currency in bucket `now` beside bucket `before`: every currency seen in either,
 * by currency code. change_percent is null unless the earlier net was above 0 (a change from a
 * loss or from nothing has no meaningful percentage).
 */
export function revenueChanges(entries: readonly OutcomeBucket[], now: number, before: number): RevenueChange[] {
  const current = new Map(netRevenue(entries, (bucket) => bucket === now).map((r) => [r.currency, r.value]));
  const previous = new Map(netRevenue(entries, (bucket) => bucket === before).map((r) => [r.currency, r.value]));
  const currencies = [...new Set([...current.keys(), ...previous.keys()])].sort();
  return currencies.map((currency) => {
    const [value, earlier] = [current.get(currency) ?? 0, previous.get(currency) ?? 0];
    return { currency, value, previous: earlier, change_percent: changePercent(value, earlier) };
  });
}

/**
 * The workspace's revenue days (workspace_daily_revenue) as ledger buckets: each day's purchases and
 * refunds in the bucket `bucketOfDay` gives it (days it gives none of are left out).
 */
export function revenueDayBuckets(
  days: readonly { day: string; currency: string; purchases: number; purchased: number; refunds: number; refunded: number }[],
  bucketOfDay: (day: string) => number | undefined,
): OutcomeBucket[] {
  return days.flatMap((row) => {
    const bucket = bucketOfDay(row.day);
    if (bucket === undefined) return [];
    return [
      { bucket, kind: 'purchase' as const, currency: row.currency, count: Number(row.purchases), amount: Number(row.purchased) },
      { bucket, kind: 'refund' as const, currency: row.currency, count: Number(row.refunds), amount: Number(row.refunded) },
    ];
  });
}

/** Succeeded entries of a kind in a bucket, whatever their currency. */
export function countOf(entries: readonly OutcomeBucket[], kind: OutcomeBucket['kind'], bucket: number): number {
  return entries.filter((entry) => entry.kind === kind && entry.bucket === bucket).reduce((sum, entry) => sum + entry.count, 0);
}

/** An amount in minor units as people read it: "$1,234.50", "€49.00", "¥5,000". */
export function money(amount: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    // Intl puts a no-break space between a code and the number ("BHD 1.234"); sentences get a plain one.
    return format.format(amount / 10 ** digits).replace(/\u00a0/g, ' ');
  } catch {
    // A code Intl does not know (the ledger takes any three letters): minor units, as stored.
    return `${amount} ${currency} (minor units)`;
  }
}
