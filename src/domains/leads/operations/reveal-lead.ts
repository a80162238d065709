/**
 * reveal_lead: one lead's email, names and phone as stored, even while the workspace masks personal
 * data (mask_pii), for an owner or admin signed in to the dashboard (DESIGN §10). A write in name only:
 * it changes nothing, but declaring it a write makes the pipeline record its audit event (reveal_lead,
 * the lead's id, who, from where) in the same transaction, so no reveal goes unrecorded. Dashboard
 * only: never a /v1 route or an MCP tool, refused for keys and assistant tokens.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { Id, Nullable } from '../../../core/schemas.ts';
import { leadContactById } from '../lead-contacts.queries.ts';
import { LeadId } from '../leads.schemas.ts';

/**
 * Plain strings, deliberately not PersonalString: the pipeline masks only fields declared with it, and
 * showing these unmasked is this operation's whole purpose. Nothing else may declare lead fields so.
 */
const Revealed = Type.Object(
  {
    lead_id: Id('The lead.'),
    email: Type.String({ description: 'The email as stored, unmasked.' }),
    first_name: Nullable(Type.String({ description: 'Unmasked.' })),
    last_name: Nullable(Type.String({ description: 'Unmasked.' })),
    name: Nullable(Type.String({ description: 'The full name as given, or first and last name joined; unmasked.' })),
    phone: Nullable(Type.String({ description: 'Unmasked.' })),
  },
  { additionalProperties: false },
);

export const revealLead = defineOperation({
  name: 'reveal_lead',
  summary: 'Reveal a lead’s masked contact fields',
  description:
    'Shows one lead’s email, names and phone unmasked while the workspace masks personal data. For owners and admins ' +
    'signed in to the dashboard only (no key or assistant may call it); every reveal is recorded in the audit log.',
  method: 'POST',
  path: '/leads/{lead_id}/reveal',
  group: 'Leads',
  scope: 'workspace:manage',
  write: true,
  dashboardOnly: true,
  errors: ['not_found'],
  input: Type.Object({ lead_id: LeadId }, { additionalProperties: false }),
  output: Revealed,
  example: { lead_id: '3f1c2a4e-8b7d-4c6a-9e5f-2d1b0a9c8e7f' },
  async handler(ctx, input) {
    const lead = await leadContactById(ctx.db, ctx.workspaceId, input.lead_id);
    const joined = [lead.first_name, lead.last_name].filter(Boolean).join(' ');
    return {
      lead_id: lead.id,
      email: lead.email,
      first_name: lead.first_name,
      last_name: lead.last_name,
      name: lead.name ?? (joined || null),
      phone: lead.phone,
    };
  },
});
