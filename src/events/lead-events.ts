/**
 * What `lead.*` events carry. The leads capability has no operations yet; its event schemas are
 * fixed now so the first emitter follows them, and masking follows the personal-data markers: while
 * the workspace masks (mask_pii), every field marked with PersonalString arrives masked.
 */
import { Type } from 'typebox';
import { PersonalString } from '../core/pii.ts';
import { Id, Nullable, Timestamp } from '../core/schemas.ts';

const LeadId = Id('The lead id.');

export const LeadSnapshot = Type.Object(
  {
    lead_id: LeadId,
    email: PersonalString('email'),
    first_name: Nullable(PersonalString('name')),
    last_name: Nullable(PersonalString('name')),
    name: Nullable(PersonalString('name')),
    phone: Nullable(PersonalString('phone')),
    status: Type.String({ description: 'The lead’s status; new leads are `new`.' }),
    tags: Type.Array(Type.String()),
    source: Nullable(Type.String({ description: 'Where the lead came from (a video, a booking, an import).' })),
    custom_fields: Type.Record(Type.String(), Type.String()),
    created_at: Timestamp('When the lead was captured.'),
    updated_at: Timestamp('When the lead last changed.'),
  },
  { additionalProperties: false },
);

export const LeadCreated = Type.Object({ lead_id: LeadId, lead: LeadSnapshot }, { additionalProperties: false });

export const LeadUpdated = Type.Object(
  {
    lead_id: LeadId,
    changed: Type.Array(Type.String(), { minItems: 1, description: 'The fields that changed.' }),
    lead: LeadSnapshot,
  },
  { additionalProperties: false },
);
