/**
 * What `outcome.created` carries: one entry of the revenue ledger (a purchase, a booked call or a
 * refund, with its value). Outcomes have no operations yet; the schema is fixed now.
 */
import { Type } from 'typebox';
import { Id, Nullable, StringEnum, Timestamp } from '../core/schemas.ts';

const OutcomeId = Id('The outcome id.');

export const OutcomeSnapshot = Type.Object(
  {
    outcome_id: OutcomeId,
    kind: StringEnum(['purchase', 'booked_call', 'refund']),
    status: Type.String({ description: 'The entry’s status in the ledger.' }),
    value: Type.Number({ description: 'In the currency’s major unit; negative for a refund.' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }),
    lead_id: Nullable(Id('The lead it is attributed to.')),
    video_id: Nullable(Id('The video it is attributed to.')),
    occurred_at: Timestamp('When it happened.'),
  },
  { additionalProperties: false },
);

export const OutcomeCreated = Type.Object({ outcome_id: OutcomeId, outcome: OutcomeSnapshot }, { additionalProperties: false });
