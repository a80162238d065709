/**
 * Writing one ledger entry, the same for record_outcome and Stripe events (docs/leads-and-outcomes.md,
 * "The ledger"): an entry whose external_id the workspace already has is answered as it is and
 * nothing is written; otherwise the lead is found or created (by email), a refund is checked against
 * the purchase it names (row locked, so concurrent refunds add up one at a time), the entry is
 * inserted with its attribution, and the lead gets an `outcome` activity, engagement points and its
 * automatic status. Emits lead.created (a new lead), lead.updated (a status move) and outcome.created.
 */
import type { Kysely } from 'kysely';
import type { Emit } from '../../core/context.ts';
import { AppError, type FieldProblem } from '../../core/errors.ts';
import type { Database, LeadSource, OutcomeKind, OutcomeSource, OutcomeStatus } from '../../db/tables/index.ts';
import {
  AUTOMATIC_AUTHOR,
  addLeadEngagement,
  assertLeadInWorkspace,
  automaticStatus,
  ENGAGEMENT_POINTS,
  emitLeadChange,
  leadIdByEmail,
  leadSnapshot,
  lockLeadForChange,
  recordLeadActivity,
  upsertLeadRecord,
} from '../leads/index.ts';
import { assertVideoInWorkspace } from '../videos/index.ts';
import type { OutcomeSnapshot } from './outcomes.events.ts';
import {
  findOutcomeIdByExternalId,
  insertOutcome,
  lockExternalId,
  lockRefundable,
  outcomeSnapshot,
  refundedAmount,
} from './outcomes.queries.ts';

/** Who the entry belongs to: a lead of the workspace, an email (found or made a lead), or nobody. */
export type LeadReference = { leadId: string } | { email: string; source: LeadSource } | null;

export interface LedgerEntryRequest {
  workspaceId: string;
  kind: OutcomeKind;
  status: OutcomeStatus;
  amount: number;
  /** Upper case. */
  currency: string;
  lead: LeadReference;
  videoId: string | null;
  refundsOutcomeId: string | null;
  externalId: string | null;
  source: OutcomeSource;
  description: string | null;
  occurredAt: Date;
  /** Who wrote it, for the notes of a lead it creates ("API", "Stripe"). */
  author: string;
  now: Date;
  /** How problems name the refunded purchase: record_outcome's field, or where Stripe's event has it. */
  refundsField?: string;
  /** How problems name the amount: record_outcome's field, or where Stripe's event has it. */
  amountField?: string;
}

export interface LedgerEntryResult {
  outcome: OutcomeSnapshot;
  created: boolean;
}

export async function recordLedgerEntry(db: Kysely<Database>, request: LedgerEntryRequest, emit: Emit): Promise<LedgerEntryResult> {
  const { workspaceId, now } = request;
  if (request.externalId) {
    await lockExternalId(db, workspaceId, request.externalId);
    const existing = await findOutcomeIdByExternalId(db, workspaceId, request.externalId);
    if (existing) return { outcome: await outcomeSnapshot(db, workspaceId, existing), created: false };
  }
  let leadId: string | null = null;
  let videoId = request.videoId;
  if (request.refundsOutcomeId) {
    const purchase = await lockRefundable(db, workspaceId, request.refundsOutcomeId);
    await checkRefund(db, request, purchase, request.refundsField ?? 'refunds_outcome_id');
    // A refund belongs to whoever bought, and to the video the purchase named, unless told otherwise.
    leadId = purchase.lead_id;
    videoId ??= purchase.video_id;
  }
  if (request.lead && 'leadId' in request.lead) {
    await assertLeadInWorkspace(db, workspaceId, request.lead.leadId);
    leadId = request.lead.leadId;
  } else if (request.lead) {
    leadId = await leadForEmail(db, request, request.lead, emit);
  }
  // Locks in one order for every entry: the external id, the purchase refunded, the lead, then the
  // entry and the day's revenue counter. Entries for one lead queue at the lead instead of each
  // holding the counter while waiting for the lead (the deadlock of issue 26).
  if (leadId) await lockLeadForChange(db, workspaceId, leadId);
  if (videoId) await assertVideoInWorkspace(db, workspaceId, videoId);

  const { outcomeId, inserted } = await insertOutcome(db, {
    workspaceId,
    kind: request.kind,
    status: request.status,
    amount: request.amount,
    currency: request.currency,
    leadId,
    videoId,
    refundedOutcomeId: request.refundsOutcomeId,
    externalId: request.externalId,
    source: request.source,
    description: request.description,
    occurredAt: request.occurredAt,
    now,
  });
  const outcome = await outcomeSnapshot(db, workspaceId, outcomeId);
  if (!inserted) return { outcome, created: false };
  if (leadId) await creditLead(db, request, leadId, outcome, emit);
  await emit('outcome.created', { outcome_id: outcome.outcome_id, outcome });
  return { outcome, created: true };
}

async function checkRefund(
  db: Kysely<Database>,
  request: LedgerEntryRequest,
  purchase: { id: string; kind: OutcomeKind; status: OutcomeStatus; amount: number; currency: string },
  field: string,
): Promise<void> {
  const problems: FieldProblem[] = [];
  if (request.kind !== 'refund') problems.push({ field, problem: 'may only be given with kind refund' });
  if (purchase.kind !== 'purchase') problems.push({ field, problem: `must name a purchase; that outcome is a ${purchase.kind}` });
  if (purchase.currency !== request.currency) {
    problems.push({ field: 'currency', problem: `must be ${purchase.currency}, the currency of the purchase refunded` });
  }
  if (problems.length > 0) throw AppError.invalid(problems);
  if (request.status === 'failed' || request.status === 'canceled') return;
  const refunded = await refundedAmount(db, request.workspaceId, purchase.id);
  const refundable = Number(purchase.amount) - refunded;
  if (request.amount > refundable) throw refundTooLarge(request, purchase, refundable);
}

/**
 * A refund larger than what is left of its purchase is a bad amount, not a conflict: 409 is kept for
 * idempotency conflicts (SPEC §7), and Stripe answers such a refund with 400 too. The answer names the
 * amount with what is left, and keeps the details callers read (reason, refundable, currency, outcome_id).
 */
function refundTooLarge(
  request: LedgerEntryRequest,
  purchase: { id: string; amount: number; currency: string },
  refundable: number,
): AppError {
  const total = `${Number(purchase.amount)} ${purchase.currency}`;
  const problem =
    refundable > 0
      ? `must be at most ${refundable}, what is left to refund of that purchase (${refundable} ${purchase.currency} of its ${total})`
      : `is more than is left to refund of that purchase: nothing is left (its ${total} are refunded already)`;
  const invalid = AppError.invalid([{ field: request.amountField ?? 'amount', problem }]);
  return new AppError('invalid_request', invalid.message, {
    ...invalid.details,
    reason: 'refund_exceeds_purchase',
    refundable,
    currency: purchase.currency,
    outcome_id: purchase.id,
  });
}

/**
 * The lead with this email, or a new one (emitting lead.created). An existing lead is only matched,
 * not changed: a payment's email is not an edit of the lead's address.
 */
async function leadForEmail(
  db: Kysely<Database>,
  request: LedgerEntryRequest,
  reference: { email: string; source: LeadSource },
  emit: Emit,
): Promise<string> {
  const known = await leadIdByEmail(db, request.workspaceId, reference.email);
  if (known) return known;
  const { lead, created } = await upsertLeadRecord(db, {
    workspaceId: request.workspaceId,
    fields: { email: reference.email },
    author: request.author,
    source: reference.source,
    at: request.now,
  });
  await emitLeadChange(emit, {
    leadId: lead.id,
    created,
    changed: [],
    lead: () => leadSnapshot(db, request.workspaceId, lead.id, request.now),
  });
  return lead.id;
}

/** The entry in the lead's history, its engagement points, and the status it moves the lead to. */
async function creditLead(db: Kysely<Database>, request: LedgerEntryRequest, leadId: string, outcome: OutcomeSnapshot, emit: Emit) {
  const { workspaceId, now } = request;
  await recordLeadActivity(db, {
    workspaceId,
    leadId,
    kind: 'outcome',
    videoId: outcome.video?.video_id ?? outcome.last_touch_video?.video_id ?? null,
    data: { outcome_id: outcome.outcome_id, kind: outcome.kind, status: outcome.status, value: outcome.value, currency: outcome.currency },
    at: request.occurredAt,
  });
  if (outcome.status !== 'succeeded' || outcome.kind === 'refund') return;
  const trigger = outcome.kind === 'purchase' ? ({ kind: 'purchase' } as const) : ({ kind: 'booked_call' } as const);
  await addLeadEngagement(db, {
    leadId,
    points: outcome.kind === 'purchase' ? ENGAGEMENT_POINTS.purchase : ENGAGEMENT_POINTS.booking,
    at: request.occurredAt,
  });
  const lead = await leadSnapshot(db, workspaceId, leadId, now);
  const status = automaticStatus(lead.status, trigger);
  if (!status) return;
  await upsertLeadRecord(db, {
    workspaceId,
    fields: { email: lead.email, status },
    author: AUTOMATIC_AUTHOR,
    source: lead.source,
    at: now,
  });
  await emitLeadChange(emit, { leadId, created: false, changed: ['status'], lead: () => leadSnapshot(db, workspaceId, leadId, now) });
}
