/**
 * The front door of the outcomes area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { cancelBookedCall, ledgerEntryValues } from './booked-calls.queries.ts';
export { detachLeadFromLedger } from './lead-detachment.queries.ts';
export { countLedgerEntries } from './ledger-size.queries.ts';
export { OUTCOME_KINDS, OUTCOME_STATUSES } from './outcomes.events.ts';
export { MAX_AMOUNT } from './outcomes.schemas.ts';
export { succeededRevenueEntries } from './revenue-entries.queries.ts';
export { STRIPE_SECRET_PURPOSE, TOLERANCE_SECONDS } from './stripe-signature.ts';
export { biggestPurchasesByCurrency, type OutcomeBucket, succeededOutcomes } from './succeeded-entries.queries.ts';

// Then the files that reach other areas.
export { firstPurchaseAt, leadLedgerEntries } from './lead-ledger.queries.ts';
export { type LedgerEntryRequest, recordLedgerEntry } from './ledger-entries.ts';
export { acceptStripeDelivery } from './stripe-intake.ts';
