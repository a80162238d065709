/**
 * upsert_lead: adds the lead with this email (201) or enriches the one that has it (200), by the
 * merging rules of upsertLeadRecord. Writes the lead, a note and a status change when sent, and
 * emits `lead.created`, or `lead.updated` listing what changed (nothing when nothing did).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { Email, PersonName, Phone, StringEnum, Tags } from '../../../core/schemas.ts';
import { emitLeadChange } from '../lead-change-events.ts';
import { leadSnapshot, upsertLeadRecord } from '../lead-records.queries.ts';
import { LEAD_SOURCES } from '../leads.events.ts';
import { CustomFieldsInput, LeadStatus, LeadWithCreated, NoteText } from '../leads.schemas.ts';

export const upsertLead = defineOperation({
  name: 'upsert_lead',
  summary: 'Add a lead, or enrich the one with that email',
  description:
    'Adds a lead by email, or enriches the lead that already has it (emails compare trimmed, case-insensitively). ' +
    'Sent fields overwrite, tags are added, custom_fields merge key by key (null removes a key), notes appends one ' +
    'note. Answers 201 with created=true for a new lead, 200 with created=false otherwise.',
  method: 'PUT',
  path: '/leads',
  group: 'Leads',
  scope: 'leads:write',
  write: true,
  createdWhen: (output) => output.created,
  errors: [],
  input: Type.Object(
    {
      email: Email('The lead’s email address: the key that finds an existing lead.'),
      first_name: Type.Optional(PersonName('First name.')),
      last_name: Type.Optional(PersonName('Last name.')),
      name: Type.Optional(PersonName('Full name, when first and last are not separate.', 200)),
      phone: Type.Optional(Phone('Phone number.')),
      status: Type.Optional(LeadStatus),
      tags: Type.Optional(Tags('Added to the lead’s tags.')),
      custom_fields: Type.Optional(CustomFieldsInput),
      notes: Type.Optional(NoteText),
      source: Type.Optional(
        StringEnum(LEAD_SOURCES, { default: 'api', description: 'Where a new lead came from; an existing lead keeps its own.' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: LeadWithCreated,
  example: {
    email: 'jane@example.com',
    first_name: 'Jane',
    tags: ['webinar'],
    custom_fields: { company: 'Acme' },
    notes: 'Met at the webinar.',
  },
  async handler(ctx, input) {
    const { notes, source, ...fields } = input;
    const result = await upsertLeadRecord(ctx.db, {
      workspaceId: ctx.workspaceId,
      fields,
      ...(notes !== undefined ? { note: notes } : {}),
      author: ctx.principal.name,
      source: source ?? 'api',
      at: ctx.now,
    });
    const lead = await leadSnapshot(ctx.db, ctx.workspaceId, result.lead.id, ctx.now);
    await emitLeadChange(ctx.emit, { leadId: lead.lead_id, created: result.created, changed: result.changed, lead });
    return { ...lead, created: result.created };
  },
});
