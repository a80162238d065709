/**
 * One Stripe webhook delivery, from raw bytes to the ledger: the signature is checked against the
 * workspace's signing secret before anything is parsed, the event is read (stripe-events.ts), and an
 * event the ledger takes is recorded through recordLedgerEntry, in one transaction with its events.
 * An unknown workspace, a workspace without a secret, and a bad or stale signature are the same
 * answer, so the endpoint tells nobody which workspaces exist. Stripe retries deliveries; the Stripe
 * object id as external_id makes a retry write nothing. A recorded entry is an audit event of the
 * service (actor system, transport stripe), naming the outcome and its lead by id.
 */
import type { Kysely } from 'kysely';
import { jsonTextProblem, scanValue } from '../../core/pipeline/input-bounds.ts';
import type { SealedBox } from '../../core/secrets/sealed-box.ts';
import { isUuid } from '../../core/values/real-instants.ts';
import { outboxEmitter } from '../../db/outbox.ts';
import type { Database } from '../../db/tables/index.ts';
import { recordAuditEvent } from '../audit/index.ts';
import { sealedStripeSecret } from '../workspace/index.ts';
import { type LedgerEntryRequest, recordLedgerEntry } from './ledger-entries.ts';
import { findOutcomeIdByExternalId, lockRefundable, refundedUnderPrefix } from './outcomes.queries.ts';
import { ledgerEntryFromStripeEvent } from './stripe-events.ts';
import { verifyStripeSignature } from './stripe-signature.ts';

export interface StripeDelivery {
  workspaceId: string;
  rawBody: Buffer;
  signature: string | undefined;
  now: Date;
}

export type StripeIntake =
  | { kind: 'rejected' }
  | { kind: 'malformed'; problem: string }
  | { kind: 'ignored' }
  | { kind: 'recorded'; outcomeId: string; created: boolean };

export async function acceptStripeDelivery(db: Kysely<Database>, box: SealedBox, delivery: StripeDelivery): Promise<StripeIntake> {
  const { workspaceId, now } = delivery;
  if (!isUuid(workspaceId)) return { kind: 'rejected' };
  const sealed = await sealedStripeSecret(db, workspaceId);
  if (!sealed) return { kind: 'rejected' };
  let secret: string;
  try {
    secret = String(box.open(sealed));
  } catch {
    return { kind: 'rejected' }; // sealed under another CUEPOINT_SECRET: set it again
  }
  if (!verifyStripeSignature(delivery.rawBody, delivery.signature, secret, now).ok) return { kind: 'rejected' };

  const body = delivery.rawBody.toString('utf8');
  const shape = jsonTextProblem(body);
  if (shape) return { kind: 'malformed', problem: shape };
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return { kind: 'malformed', problem: 'the body is not valid JSON' };
  }
  // Text the database cannot store (a lone surrogate, U+0000): a lone surrogate was stored as U+FFFD, silently changing an email or id.
  const [unstorable] = scanValue(event).unstorableText;
  if (unstorable) return { kind: 'malformed', problem: `${unstorable.field} ${unstorable.problem}` };
  const entry = ledgerEntryFromStripeEvent(event);
  if (!entry) return { kind: 'ignored' };

  return db.transaction().execute(async (trx) => {
    const base: LedgerEntryRequest = {
      workspaceId,
      kind: entry.kind,
      status: 'succeeded',
      amount: entry.amount,
      currency: entry.currency,
      lead: entry.email ? { email: entry.email, source: 'stripe' } : null,
      videoId: null,
      refundsOutcomeId: null,
      externalId: entry.externalId,
      source: 'stripe',
      description: entry.description,
      occurredAt: entry.occurredAt,
      author: 'Stripe',
      now,
      refundsField: 'data.object.payment_intent',
      amountField: 'data.object.amount_refunded',
    };
    const emit = outboxEmitter(trx, workspaceId, now);
    let request = base;
    if (entry.refunds) {
      if (await findOutcomeIdByExternalId(trx, workspaceId, entry.externalId)) {
        // A retry of a refund already recorded: recordLedgerEntry answers it without writing.
      } else {
        const purchaseId = entry.refunds.purchaseExternalId
          ? await findOutcomeIdByExternalId(trx, workspaceId, entry.refunds.purchaseExternalId)
          : undefined;
        // Locked before the charge's refunds are added up, so two refund events of one charge
        // arriving together are counted one after the other.
        if (purchaseId) await lockRefundable(trx, workspaceId, purchaseId);
        // amount_refunded is the charge's running total: the entry is the part not recorded yet.
        const recorded = await refundedUnderPrefix(trx, workspaceId, entry.refunds.chargeRefundPrefix);
        if (entry.amount - recorded <= 0) return { kind: 'ignored' } as const;
        request = {
          ...base,
          amount: entry.amount - recorded,
          refundsOutcomeId: purchaseId ?? null,
          // The buyer of a known purchase is the one refunded, whatever email the charge shows.
          lead: purchaseId ? null : base.lead,
        };
      }
    }
    const { outcome, created } = await recordLedgerEntry(trx, request, emit);
    // A retry of a delivery already recorded wrote nothing, so it is no change to audit.
    if (created) {
      await recordAuditEvent(trx, {
        workspaceId,
        at: now,
        actor: { kind: 'system', id: null, name: 'Stripe' },
        action: 'record_outcome',
        object: { kind: 'outcome', id: outcome.outcome_id },
        origin: { transport: 'stripe' },
        details: { kind: outcome.kind, status: outcome.status, ...(outcome.lead ? { lead_id: outcome.lead.lead_id } : {}) },
      });
    }
    return { kind: 'recorded', outcomeId: outcome.outcome_id, created } as const;
  });
}
