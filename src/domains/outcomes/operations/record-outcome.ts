/**
 * record_outcome: adds a purchase, booked call or refund to the ledger, with its attribution. Writes
 * the outcome, the lead's `outcome` activity, engagement and automatic status (and the lead itself
 * for an unknown email); emits outcome.created, and lead.created / lead.updated when those happen.
 * The same external_id again writes nothing and answers the entry already recorded.
 */
import { Type } from 'typebox';
import { AppError, type FieldProblem } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { Currency, Email, ExternalId, ResourceId, StringEnum, Timestamp } from '../../../core/schemas.ts';
import { type LeadReference, recordLedgerEntry } from '../ledger-entries.ts';
import { OUTCOME_KINDS, OUTCOME_STATUSES, OutcomeSnapshot } from '../outcomes.events.ts';
import { MAX_AMOUNT } from '../outcomes.schemas.ts';

/** How far ahead of our clock occurred_at may be: the writer's clock may run a little fast. */
const FUTURE_SKEW_MS = 5 * 60 * 1000;

export const recordOutcome = defineOperation({
  name: 'record_outcome',
  summary: 'Record a purchase, booked call or refund',
  description:
    'Adds an entry to the revenue ledger: kind, amount in minor units (cents; also accepted as value, the name outcomes answer with) and ISO 4217 currency, and the lead by lead_id ' +
    'or email (an unknown email becomes a new lead). Attributed to the first and last video the lead watched before it. ' +
    'A refund may name the purchase it refunds; refunds never exceed it. Send external_id to make retries safe: the same ' +
    'external_id answers the entry already recorded (created: false).',
  method: 'POST',
  path: '/outcomes',
  group: 'Outcomes',
  scope: 'outcomes:write',
  write: true,
  // 201 when it recorded the entry; 200 with the entry already recorded under that external_id.
  status: 200,
  createdWhen: (output) => output.created,
  errors: ['not_found', 'conflict'],
  input: Type.Object(
    {
      kind: StringEnum(OUTCOME_KINDS),
      status: Type.Optional(StringEnum(OUTCOME_STATUSES, { default: 'succeeded', description: 'Default succeeded.' })),
      amount: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: MAX_AMOUNT,
          description: 'Minor units (4900 = 49.00 USD); 0 for a free call. Required, unless sent as value.',
        }),
      ),
      // Every outcome answers with `value`, so a client may send back what it reads.
      value: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: MAX_AMOUNT,
          description: 'The same as amount, under the name outcomes answer with; send one of the two.',
        }),
      ),
      currency: Currency('ISO 4217 code, such as USD; any case.'),
      lead_id: Type.Optional(ResourceId('lead', 'The lead it belongs to (or give email).')),
      email: Type.Optional(Email('The lead’s email (or give lead_id); an unknown one creates the lead.')),
      video_id: Type.Optional(ResourceId('video', 'A video the writer credits.')),
      occurred_at: Type.Optional(Timestamp('When it happened; default now. Not in the future.')),
      description: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      external_id: Type.Optional(ExternalId('Your id for it (an order number); unique in the workspace.')),
      refunds_outcome_id: Type.Optional(ResourceId('outcome', 'For a refund: the purchase it refunds.')),
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      ...OutcomeSnapshot.properties,
      created: Type.Boolean({ description: 'false when the external_id was already recorded: nothing was written.' }),
    },
    { additionalProperties: false },
  ),
  example: { kind: 'purchase', amount: 4900, currency: 'USD', email: 'ada@example.com', external_id: 'order-1001' },
  async handler(ctx, input) {
    const occurredAt = input.occurred_at ? new Date(input.occurred_at) : ctx.now;
    const problems: FieldProblem[] = [];
    if (input.lead_id && input.email) problems.push({ field: 'email', problem: 'must not be given with lead_id: name the lead one way' });
    if (occurredAt.getTime() > ctx.now.getTime() + FUTURE_SKEW_MS) {
      problems.push({ field: 'occurred_at', problem: `must not be in the future (now is ${ctx.now.toISOString()})` });
    }
    if (input.refunds_outcome_id && input.kind !== 'refund') {
      problems.push({ field: 'refunds_outcome_id', problem: 'may only be given with kind refund' });
    }
    if (input.amount === undefined && input.value === undefined) {
      problems.push({ field: 'amount', problem: 'is required (in minor units, 4900 = 49.00 USD), as amount or as value' });
    }
    if (input.amount !== undefined && input.value !== undefined) {
      problems.push({ field: 'value', problem: 'must not be given with amount: they are one field under two names' });
    }
    if (problems.length > 0) throw AppError.invalid(problems);
    const amountField = input.amount === undefined ? 'value' : 'amount';
    const lead: LeadReference = input.lead_id ? { leadId: input.lead_id } : input.email ? { email: input.email, source: 'api' } : null;
    const { outcome, created } = await recordLedgerEntry(
      ctx.db,
      {
        workspaceId: ctx.workspaceId,
        kind: input.kind,
        status: input.status ?? 'succeeded',
        amount: (input.amount ?? input.value) as number,
        currency: input.currency.toUpperCase(),
        lead,
        videoId: input.video_id ?? null,
        refundsOutcomeId: input.refunds_outcome_id ?? null,
        externalId: input.external_id ?? null,
        source: 'api',
        description: input.description ?? null,
        occurredAt,
        author: 'API',
        now: ctx.now,
        amountField,
      },
      ctx.emit,
    );
    return { ...outcome, created };
  },
});
