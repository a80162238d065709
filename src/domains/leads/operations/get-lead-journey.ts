/**
 * get_lead_journey: the lead's story across videos, oldest first (views, CTA clicks, route choices,
 * the form, notes, status changes, outcomes), with first and last touch and the time to conversion.
 * Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { toLeadSnapshot } from '../lead-records.queries.ts';
import { journeySummary, leadTimeline } from '../lead-timeline.queries.ts';
import { findLead } from '../leads.queries.ts';
import { LeadId, LeadJourney } from '../leads.schemas.ts';

/** Entries shown: the latest ones, so a long story still ends with what happened last. */
export const JOURNEY_LIMIT = 500;

export const getLeadJourney = defineOperation({
  name: 'get_lead_journey',
  summary: 'A lead’s timeline across videos',
  description:
    'Tells one lead’s story oldest first, across every video and browser: each entry has its time, kind, video and ' +
    'facts (watched share and seconds, slices reached, CTA label, route choice, form, note, outcome value). The summary gives ' +
    `first and last touch and the time to conversion. The latest ${JOURNEY_LIMIT} entries are shown.`,
  method: 'GET',
  path: '/leads/{lead_id}/journey',
  group: 'Leads',
  scope: 'leads:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ lead_id: LeadId }, { additionalProperties: false }),
  output: LeadJourney,
  example: { lead_id: '3f1c2a4e-8b7d-4c6a-9e5f-2d1b0a9c8e7f' },
  async handler(ctx, input) {
    const row = await findLead(ctx.db, ctx.workspaceId, input.lead_id);
    const lead = toLeadSnapshot(row, null, ctx.now);
    const [timeline, summary] = await Promise.all([
      leadTimeline(ctx.db, ctx.workspaceId, row.id, JOURNEY_LIMIT),
      journeySummary(ctx.db, ctx.workspaceId, row),
    ]);
    return {
      lead_id: row.id,
      email: lead.email,
      name: lead.name,
      status: lead.status,
      entries: timeline.entries.reverse(),
      total: timeline.total,
      earlier_omitted: timeline.total - timeline.entries.length,
      summary,
    };
  },
});
