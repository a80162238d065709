/**
 * The front door of the webhooks area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
// First the files that reach no other area: ES modules evaluate a front door's files in this order, and
// other areas build their schemas from these when they load, so they must be ready before any file
// below, which may lead back here through another area.
export { forgetDeliveriesOfEvents } from './delivery-erasure.queries.ts';
export { type AttemptResult, sendAttempt } from './send-attempt.ts';
export { generateWebhookSecret, signingSecretsAt, UnreadableSecretError, WEBHOOK_SECRET_PURPOSE } from './webhook-secrets.ts';

// Then the files that reach other areas.
export {
  claimDueDeliveries,
  type ClaimedDelivery,
  fanOutEvents,
  outcomeOf,
  reapAbandonedDeliveries,
  recordAttempt,
} from './delivery-queue.ts';
export { eventPayload } from './event-payload.ts';
