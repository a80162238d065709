/**
 * The front door of the outcomes area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */

export { cancelBookedCall, ledgerEntryValues } from './booked-calls.queries.ts';
export { type LedgerEntryRequest, recordLedgerEntry } from './ledger-entries.ts';
export { countLedgerEntries } from './ledger-size.queries.ts';
export { OUTCOME_KINDS, OUTCOME_STATUSES } from './outcomes.events.ts';
export { MAX_AMOUNT } from './outcomes.schemas.ts';
export { acceptStripeDelivery } from './stripe-intake.ts';
export { STRIPE_SECRET_PURPOSE, TOLERANCE_SECONDS } from './stripe-signature.ts';
export { biggestPurchasesByCurrency, type OutcomeBucket, succeededOutcomes } from './succeeded-entries.queries.ts';
