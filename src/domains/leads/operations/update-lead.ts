/**
 * update_lead: sets a lead's status, tags (the list replaces them), email, name or phone, and appends
 * a note crediting the credential. Writes the lead row, a `note` and a `status_changed` activity when
 * those change, and emits `lead.updated` listing the changed fields (nothing when nothing changed).
 */
import { Type } from 'typebox';
import { AppError } from '../../../core/errors.ts';
import { defineOperation } from '../../../core/operation.ts';
import { Email, Nullable, PersonName, Phone, Tags } from '../../../core/schemas.ts';
import { emitLeadChange } from '../lead-change-events.ts';
import { leadSnapshot, recordLeadActivity, uniqueTags } from '../lead-records.queries.ts';
import { LeadSnapshot } from '../leads.events.ts';
import { emailTakenByOther, lockLead } from '../leads.queries.ts';
import { LeadId, LeadStatus, NoteText } from '../leads.schemas.ts';

const emailTaken = () =>
  new AppError('conflict', 'Another lead of this workspace already has that email address.', { reason: 'email_taken' });

export const updateLead = defineOperation({
  name: 'update_lead',
  summary: 'Set a lead’s status, tags or contact details, or add a note',
  description:
    'Changes a lead’s status, tags (the list replaces the current one), email, name or phone; notes appends a note ' +
    'with its time and this credential’s name, never replacing earlier ones. Another lead’s email is a 409 conflict. ' +
    'Only the fields sent change. Returns the lead.',
  method: 'PATCH',
  path: '/leads/{lead_id}',
  group: 'Leads',
  scope: 'leads:write',
  write: true,
  errors: ['not_found', 'conflict'],
  input: Type.Object(
    {
      lead_id: LeadId,
      status: Type.Optional(LeadStatus),
      tags: Type.Optional(Tags('Replaces the lead’s tags.')),
      notes: Type.Optional(NoteText),
      email: Type.Optional(Email('The new email address; no other lead of the workspace may have it.')),
      name: Type.Optional(Nullable(PersonName('Full name; null clears it.', 200))),
      phone: Type.Optional(Nullable(Phone('Phone number; null clears it.'))),
    },
    { additionalProperties: false },
  ),
  output: LeadSnapshot,
  example: { lead_id: '3f1c2a4e-8b7d-4c6a-9e5f-2d1b0a9c8e7f', status: 'qualified', notes: 'Asked for a demo next week.' },
  async handler(ctx, input) {
    const { lead_id: leadId } = input;
    const current = await lockLead(ctx.db, ctx.workspaceId, leadId);
    const changes: { status?: typeof current.status; tags?: string[]; email?: string; name?: string | null; phone?: string | null } = {};
    const changed: string[] = [];
    if (input.status !== undefined && input.status !== current.status) changes.status = input.status;
    if (input.tags !== undefined) {
      const tags = uniqueTags([], input.tags);
      if (tags.join('\u0000') !== current.tags.join('\u0000')) changes.tags = tags;
    }
    if (input.email !== undefined && input.email.trim() !== current.email) {
      const email = input.email.trim();
      // Named by nothing personal: the answer must not tell whose address it is.
      if (await emailTakenByOther(ctx.db, ctx.workspaceId, email, leadId)) {
        throw emailTaken();
      }
      changes.email = email;
    }
    if (input.name !== undefined && input.name !== current.name) changes.name = input.name;
    if (input.phone !== undefined && input.phone !== current.phone) changes.phone = input.phone;
    changed.push(...Object.keys(changes));

    const author = input.notes !== undefined || changes.status ? ctx.principal.name : '';
    if (changes.status) {
      await recordLeadActivity(ctx.db, {
        workspaceId: ctx.workspaceId,
        leadId,
        kind: 'status_changed',
        data: { from: current.status, to: changes.status, author },
        at: ctx.now,
      });
    }
    if (input.notes !== undefined) {
      await recordLeadActivity(ctx.db, {
        workspaceId: ctx.workspaceId,
        leadId,
        kind: 'note',
        data: { body: input.notes, author },
        at: ctx.now,
      });
      changed.push('notes');
    }
    if (changed.length === 0) return leadSnapshot(ctx.db, ctx.workspaceId, leadId, ctx.now);
    const touched = Object.keys(changes).length > 0 ? { ...changes, updated_at: ctx.now } : {};
    await ctx.db
      .updateTable('leads')
      .set({ ...touched, last_activity_at: new Date(Math.max(ctx.now.getTime(), current.last_activity_at.getTime())) })
      .where('workspace_id', '=', ctx.workspaceId)
      .where('id', '=', leadId)
      .execute()
      .catch((error: unknown) => {
        // Another request gave that email to its lead since the check above: the unique index says so.
        if ((error as { code?: unknown }).code === '23505') throw emailTaken();
        throw error;
      });
    const lead = await leadSnapshot(ctx.db, ctx.workspaceId, leadId, ctx.now);
    await emitLeadChange(ctx.emit, { leadId, created: false, changed, lead });
    return lead;
  },
});
