/**
 * erase_lead (dashboard only, owners and admins; GDPR Art. 17): deletes the lead, its activities and
 * links, and the events, deliveries and stored answers naming them; keeps their bookings, ledger
 * entries, visits and viewing with nothing of them in it, so totals stay; emits `lead.deleted` (id only).
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { forgetResponsesMentioning, STORED_RESPONSES_PURPOSE } from '../../../core/pipeline/idempotency.ts';
import { Timestamp } from '../../../core/schemas.ts';
import { eraseEventsMentioning } from '../../../db/outbox-erasure.ts';
import { mentionNeedles } from '../../../db/text-mentions.ts';
import { forgetChannelViewers } from '../../channel/index.ts';
import { eraseEmailsTo } from '../../email/index.ts';
import { detachLeadFromLedger } from '../../outcomes/index.ts';
import { forgetRouteVisitor } from '../../routes/index.ts';
import { eraseBookingInvitee } from '../../scheduling/index.ts';
import { forgetViewers } from '../../viewing/index.ts';
import { forgetDeliveriesOfEvents } from '../../webhooks/index.ts';
import { browsersToAnonymise, deleteLeadRows } from '../lead-erasure.queries.ts';
import { lockLead } from '../leads.queries.ts';
import { LeadId } from '../leads.schemas.ts';

/**
 * The event types whose data can hold a lead (its id or contact fields): only these are searched in
 * the outbox. A test (leads.test.ts) keeps it in step with the events catalog.
 */
export const PERSONAL_EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'booking.created',
  'booking.canceled',
  'booking.rescheduled',
  'outcome.created',
  'route.completed',
] as const;

export const eraseLead = defineOperation({
  name: 'erase_lead',
  summary: 'Erase a lead and everything that holds them (GDPR)',
  description:
    'Erases a person for good (right to erasure, GDPR Art. 17): the lead, notes, history and captured fields; the events ' +
    'and webhook deliveries not yet forgotten that name them; stored idempotent answers holding their address. Their ' +
    'bookings stay as anonymous blocked time, their ledger entries stay without a lead (revenue totals do not change), ' +
    'their viewing and route visits stay without anything linking them to the person. Signed-in owners and admins only, ' +
    'from the dashboard. Webhooks already delivered stay with their receivers: lead.deleted tells them to forget the id.',
  method: 'DELETE',
  path: '/leads/{lead_id}',
  group: 'Leads',
  scope: 'workspace:manage',
  write: true,
  destructive: true,
  dashboardOnly: true,
  errors: ['not_found'],
  input: Type.Object({ lead_id: LeadId }, { additionalProperties: false }),
  output: Type.Object(
    {
      lead_id: LeadId,
      erased: Type.Literal(true),
      kept_anonymous: Type.Object(
        {
          outcomes: Type.Integer({ minimum: 0, description: 'Ledger entries kept, with no lead.' }),
          bookings: Type.Integer({ minimum: 0, description: 'Bookings kept as blocked time, with no invitee.' }),
          browsers: Type.Integer({
            minimum: 0,
            description: 'Browsers of theirs alone whose viewing, visits and views now carry anonymous ids.',
          }),
        },
        { additionalProperties: false },
      ),
      removed: Type.Object(
        {
          events: Type.Integer({ minimum: 0, description: 'Outbox events that named them.' }),
          webhook_deliveries: Type.Integer({ minimum: 0, description: 'Deliveries of those events, sent or not.' }),
          idempotent_responses: Type.Integer({ minimum: 0, description: 'Stored answers to idempotent requests that held them.' }),
          emails: Type.Integer({ minimum: 0, description: 'Messages to them in the email outbox, sent or not.' }),
        },
        { additionalProperties: false },
      ),
      erased_at: Timestamp('When the lead was erased.'),
    },
    { additionalProperties: false },
  ),
  example: { lead_id: '3f1c2a4e-8b7d-4c6a-9e5f-2d1b0a9c8e7f' },
  async handler(ctx, input) {
    const { workspaceId, now } = ctx;
    const leadId = input.lead_id;
    const lead = await lockLead(ctx.db, workspaceId, leadId);
    const needles = mentionNeedles([leadId, lead.email]);
    const details = mentionNeedles([lead.email, lead.name, lead.first_name, lead.last_name, lead.phone]);
    const browsers = await browsersToAnonymise(ctx.db, workspaceId, leadId);
    // Rows of other areas first: each refers to the lead or names the person.
    const outcomes = await detachLeadFromLedger(ctx.db, workspaceId, leadId, details);
    const bookings = await eraseBookingInvitee(ctx.db, workspaceId, { leadId, email: lead.email }, now);
    await forgetRouteVisitor(ctx.db, workspaceId, { leadId, replacements: browsers });
    await forgetViewers(ctx.db, workspaceId, browsers);
    await forgetChannelViewers(ctx.db, workspaceId, browsers);
    await deleteLeadRows(ctx.db, workspaceId, leadId);
    // The service's own records: the outbox, what was made of it, and stored answers.
    const events = await eraseEventsMentioning(ctx.db, workspaceId, PERSONAL_EVENT_TYPES, needles);
    const deliveries = await forgetDeliveriesOfEvents(ctx.db, workspaceId, events);
    const responses = await forgetResponsesMentioning(ctx.db, ctx.sealedBox(STORED_RESPONSES_PURPOSE), workspaceId, needles);
    const emails = await eraseEmailsTo(ctx.db, workspaceId, lead.email);
    await ctx.emit('lead.deleted', { lead_id: leadId });
    return {
      lead_id: leadId,
      erased: true as const,
      kept_anonymous: { outcomes, bookings, browsers: browsers.length },
      removed: { events: events.length, webhook_deliveries: deliveries, idempotent_responses: responses, emails },
      erased_at: now.toISOString(),
    };
  },
});
