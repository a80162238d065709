/**
 * What `lead.*` events carry: the lead as get_lead shows it (without its history). While the
 * workspace masks (mask_pii), every field marked with PersonalString arrives masked.
 */
import { type Static, Type } from 'typebox';
import type { EventDefinition } from '../../core/event-definition.ts';
import { PersonalString } from '../../core/pii.ts';
import { Id, Nullable, StringEnum, Tag, Timestamp, VideoRef } from '../../core/schemas.ts';

export const LEAD_STATUSES = ['new', 'engaged', 'qualified', 'customer', 'lost'] as const;
export const LEAD_SOURCES = ['video', 'api', 'booking', 'import', 'stripe'] as const;

const LeadId = Id('The lead id.');

/** A custom field's value: a JSON scalar. */
export const CustomFieldValue = Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean(), Type.Null()]);

export const LeadSnapshot = Type.Object(
  {
    lead_id: LeadId,
    email: PersonalString('email'),
    first_name: Nullable(PersonalString('name')),
    last_name: Nullable(PersonalString('name')),
    name: Nullable(PersonalString('name', { description: 'The full name as given, or first and last name joined.' })),
    phone: Nullable(PersonalString('phone')),
    status: StringEnum(LEAD_STATUSES, { description: 'new, engaged, qualified, customer or lost (docs/leads-and-outcomes.md).' }),
    tags: Type.Array(Tag),
    source: StringEnum(LEAD_SOURCES, {
      description: 'How the lead first arrived: a video’s form, the API, a booking, an import, a Stripe payment.',
    }),
    source_video: Nullable(VideoRef),
    custom_fields: Type.Record(Type.String(), CustomFieldValue),
    engagement_score: Type.Integer({ minimum: 0, maximum: 100, description: 'How engaged the lead is now, 0–100, recency-weighted.' }),
    last_activity_at: Timestamp('The lead’s latest activity (a view, a form, a note, an outcome).'),
    created_at: Timestamp('When the lead was captured.'),
    updated_at: Timestamp('When the lead’s fields last changed.'),
  },
  { additionalProperties: false },
);
export type LeadSnapshot = Static<typeof LeadSnapshot>;

export const LeadCreated = Type.Object({ lead_id: LeadId, lead: LeadSnapshot }, { additionalProperties: false });

export const LeadUpdated = Type.Object(
  {
    lead_id: LeadId,
    changed: Type.Array(Type.String(), { minItems: 1, maxItems: 20, description: 'The fields that changed.' }),
    lead: LeadSnapshot,
  },
  { additionalProperties: false },
);

/** An erased lead: its id alone. Nothing personal, masked or not, is in it or left anywhere to fetch. */
export const LeadDeleted = Type.Object({ lead_id: LeadId }, { additionalProperties: false });

/** The lead event types this area emits, assembled with every other area's by src/event-catalog.ts. */
export const leadEvents = {
  'lead.created': {
    summary: 'A lead was captured',
    when: 'A new email became a lead: through upsert_lead, a watch or embed page’s lead form, or a ledger write (record_outcome, a Stripe payment) naming an unknown email.',
    data: LeadCreated,
  },
  'lead.updated': {
    summary: 'A lead was changed',
    when: 'upsert_lead, update_lead, rename_tag, a lead form’s enrichment or an automatic status change changed a lead; `changed` lists the fields, `lead` is how it is now.',
    data: LeadUpdated,
  },
  'lead.deleted': {
    summary: 'A lead was erased',
    when: 'A signed-in owner or admin erased the lead in the dashboard (GDPR Art. 17): every row holding the person is gone or anonymous; forget what you stored of this lead id too.',
    data: LeadDeleted,
  },
} as const satisfies Record<string, EventDefinition>;
