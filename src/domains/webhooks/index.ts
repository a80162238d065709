/**
 * The front door of the webhooks area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The catalog
 * takes the area's operations from ./operations.ts.
 */
export {
  type ClaimedDelivery,
  claimDueDeliveries,
  fanOutEvents,
  outcomeOf,
  reapAbandonedDeliveries,
  recordAttempt,
} from './delivery-queue.ts';
export { eventPayload } from './event-payload.ts';
export { type AttemptResult, sendAttempt } from './send-attempt.ts';
export { generateWebhookSecret, signingSecretsAt, UnreadableSecretError, WEBHOOK_SECRET_PURPOSE } from './webhook-secrets.ts';
