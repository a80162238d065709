/**
 * Which Stripe events become ledger entries, and how (docs/leads-and-outcomes.md, "Stripe"). Stripe's
 * payloads are read defensively: only the fields used here are looked at, in the shapes the API
 * versions in use send them (an id string or an expanded object). Anything else is ignored.
 *
 * - `checkout.session.completed` (paid): a purchase of `amount_total`, the customer's email;
 * - `payment_intent.succeeded`: a purchase of `amount_received`, `receipt_email` or the charge's
 *   billing email;
 * - `charge.refunded`: a refund of what was refunded since the last refund recorded for that charge
 *   (`amount_refunded` is a running total), linked to the purchase of its payment intent.
 *
 * A Checkout payment also succeeds as a payment intent, and a workspace may subscribe to both events;
 * so a payment's external_id is its payment intent's id whenever there is one (the session's id
 * otherwise), and the second event of the pair finds the entry already recorded.
 */

import { AppError } from '../../core/errors.ts';
import { isCurrencyCode } from '../../core/values/currency.ts';
import { MAX_AMOUNT } from './outcomes.schemas.ts';

export interface StripeLedgerEntry {
  kind: 'purchase' | 'refund';
  /** For a refund: the running total refunded on the charge (the entry is the part not yet recorded). */
  amount: number;
  currency: string;
  email: string | null;
  externalId: string;
  /** For a refund: the external_id of the purchase it refunds, and the prefix its charge's refunds share. */
  refunds: { purchaseExternalId: string | null; chargeRefundPrefix: string } | null;
  description: string;
  occurredAt: Date;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 && value.length <= 255 ? value : null);
const idOf = (value: unknown): string | null => text(value) ?? (isObject(value) ? text(value.id) : null);
const emailIn = (value: unknown): string | null => {
  const email = text(value)?.trim();
  return email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
};

/** The entry an event makes, or null for an event the ledger does not take. Throws 400 for a malformed one. */
export function ledgerEntryFromStripeEvent(event: unknown): StripeLedgerEntry | null {
  if (!isObject(event) || typeof event.type !== 'string' || !isObject(event.data) || !isObject(event.data.object)) {
    throw AppError.invalid([{ field: '', problem: 'is not a Stripe event: it needs type and data.object' }]);
  }
  const object = event.data.object;
  const occurredAt = typeof event.created === 'number' && Number.isFinite(event.created) ? new Date(event.created * 1000) : new Date();
  switch (event.type) {
    case 'checkout.session.completed': {
      if (object.payment_status === 'unpaid') return null; // a delayed payment method: its payment intent succeeds later
      const sessionId = idOf(object.id);
      const customer = isObject(object.customer_details) ? object.customer_details : {};
      return payment({
        amount: object.amount_total,
        currency: object.currency,
        email: emailIn(customer.email) ?? emailIn(object.customer_email),
        externalId: idOf(object.payment_intent) ?? sessionId,
        description: `Stripe Checkout ${sessionId ?? ''}`.trim(),
        occurredAt,
      });
    }
    case 'payment_intent.succeeded': {
      const charges = isObject(object.charges) && Array.isArray(object.charges.data) ? object.charges.data : [];
      const charge = isObject(object.latest_charge) ? object.latest_charge : charges.find(isObject);
      const billing = isObject(charge) && isObject(charge.billing_details) ? charge.billing_details : {};
      return payment({
        amount: object.amount_received ?? object.amount,
        currency: object.currency,
        email: emailIn(object.receipt_email) ?? emailIn(billing.email),
        externalId: idOf(object.id),
        description: `Stripe payment ${idOf(object.id) ?? ''}`.trim(),
        occurredAt,
      });
    }
    case 'charge.refunded': {
      const chargeId = idOf(object.id);
      const billing = isObject(object.billing_details) ? object.billing_details : {};
      const entry = payment({
        amount: object.amount_refunded,
        currency: object.currency,
        email: emailIn(billing.email) ?? emailIn(object.receipt_email),
        externalId: chargeId ? `${chargeId}/refunded/${String(object.amount_refunded)}` : null,
        description: `Stripe refund of ${chargeId ?? 'a charge'}`,
        occurredAt,
      });
      return {
        ...entry,
        kind: 'refund',
        refunds: { purchaseExternalId: idOf(object.payment_intent), chargeRefundPrefix: `${chargeId}/refunded/` },
      };
    }
    default:
      return null;
  }
}

function payment(fields: {
  amount: unknown;
  currency: unknown;
  email: string | null;
  externalId: string | null;
  description: string;
  occurredAt: Date;
}): StripeLedgerEntry {
  const problems = [];
  if (!Number.isInteger(fields.amount) || (fields.amount as number) < 0 || (fields.amount as number) > MAX_AMOUNT) {
    problems.push({ field: 'data.object.amount', problem: `must be an integer amount from 0 to ${MAX_AMOUNT}` });
  }
  if (typeof fields.currency !== 'string' || !isCurrencyCode(fields.currency)) {
    problems.push({ field: 'data.object.currency', problem: 'must be an ISO 4217 currency code' });
  }
  if (!fields.externalId) problems.push({ field: 'data.object.id', problem: 'must be the Stripe object id' });
  if (problems.length > 0) throw AppError.invalid(problems);
  return {
    kind: 'purchase',
    amount: fields.amount as number,
    currency: (fields.currency as string).toUpperCase(),
    email: fields.email,
    externalId: fields.externalId as string,
    refunds: null,
    description: fields.description,
    occurredAt: fields.occurredAt,
  };
}
