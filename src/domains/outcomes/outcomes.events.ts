/**
 * What `outcome.created` carries: one entry of the revenue ledger (a purchase, a booked call or a
 * refund), as list_outcomes shows it. The lead inside is masked while the workspace masks.
 */
import { type Static, Type } from 'typebox';
import type { EventDefinition } from '../../core/event-definition.ts';
import { PersonalString } from '../../core/pii.ts';
import { Id, Nullable, StringEnum, Timestamp, VideoRef } from '../../core/schemas.ts';

export const OUTCOME_KINDS = ['purchase', 'booked_call', 'refund'] as const;
export const OUTCOME_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export const OUTCOME_SOURCES = ['api', 'stripe', 'booking'] as const;

const OutcomeId = Id('The outcome id.');

/** The lead an entry belongs to, as much as a ledger line needs. */
export const OutcomeLead = Type.Object(
  { lead_id: Id('The lead.'), email: PersonalString('email'), name: Nullable(PersonalString('name')) },
  { additionalProperties: false },
);

export const OutcomeSnapshot = Type.Object(
  {
    outcome_id: OutcomeId,
    kind: StringEnum(OUTCOME_KINDS),
    status: StringEnum(OUTCOME_STATUSES, {
      description: 'pending, succeeded, failed or canceled; only succeeded entries count in totals.',
    }),
    value: Type.Integer({
      minimum: 0,
      description: 'The amount in the currency’s minor unit (cents for USD); a refund’s kind, not its sign, says it is money back.',
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, upper case.' }),
    lead: Nullable(OutcomeLead),
    video: Nullable(VideoRef),
    first_touch_video: Nullable(VideoRef),
    last_touch_video: Nullable(VideoRef),
    refunded_outcome_id: Nullable(Id('For a refund: the outcome it refunds.')),
    external_id: Nullable(
      Type.String({ description: 'The writer’s own id (a Stripe object id for Stripe events); unique in the workspace.' }),
    ),
    source: StringEnum(OUTCOME_SOURCES, { description: 'Who wrote it: the API (record_outcome), a Stripe event, a booking.' }),
    description: Nullable(Type.String()),
    occurred_at: Timestamp('When it happened.'),
    created_at: Timestamp('When it was recorded.'),
  },
  { additionalProperties: false },
);
export type OutcomeSnapshot = Static<typeof OutcomeSnapshot>;

export const OutcomeCreated = Type.Object({ outcome_id: OutcomeId, outcome: OutcomeSnapshot }, { additionalProperties: false });

/** The outcome event types this area emits, assembled with every other area's by src/event-catalog.ts. */
export const outcomeEvents = {
  'outcome.created': {
    summary: 'An outcome was recorded',
    when: 'A purchase, booked call or refund entered the revenue ledger: record_outcome, or a Stripe payment or refund event.',
    data: OutcomeCreated,
  },
} as const satisfies Record<string, EventDefinition>;
