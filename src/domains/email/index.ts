/**
 * The front door of the email area: what other areas, the transports, workers and the CLI may use.
 * Nothing else of the area is reachable from outside it (test/architecture.test.ts). The area reaches
 * no other area.
 *
 * Writers: `renderEmail` makes a message's two parts, `queueEmail` puts it in the outbox inside the
 * writer's transaction. Owners: `listQueuedEmails`. Erasure: `eraseEmailsTo`. Forms that take an
 * address: `isDeliverableAddress`. The email worker (src/workers/email-delivery.ts): the rest.
 */
export { isDeliverableAddress, normalizedAddress } from './deliverable-address.ts';
export {
  type ClaimedEmail,
  claimDueEmails,
  logUnsentLinks,
  reapAbandonedEmails,
  recordEmailFailure,
  recordEmailSent,
  type UnsentLink,
} from './delivery-queue.ts';
export { eraseEmailsTo, listQueuedEmails, type QueuedEmail } from './email-outbox.queries.ts';
export { type MailFrom, parseMailFrom, parseSmtpUrl, type SmtpSettings } from './mail-settings.ts';
export { type OutgoingEmail, queueEmail, UndeliverableAddressError } from './queue-email.ts';
export { type EmailParts, renderEmail } from './render-email.ts';
export { EMAIL_RETRY_POLICY, type EmailRetryPolicy, emailRetryDelayMs } from './retry-policy.ts';
export { createSmtpSender, SEND_DEADLINE_MS, type SendOutcome, type SmtpSender } from './smtp-sender.ts';
