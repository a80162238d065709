/**
 * get_lead: one lead with its history newest first (views with the share watched, CTA clicks, route
 * choices, form submissions, notes, status changes, outcomes), the latest 50 entries and a count of
 * the rest. Reads only.
 */
import { Type } from 'typebox';
import { defineOperation } from '../../../core/operation.ts';
import { leadSnapshot } from '../lead-records.queries.ts';
import { leadTimeline } from '../lead-timeline.queries.ts';
import { LeadDetail, LeadId } from '../leads.schemas.ts';

/** History entries shown; get_lead_journey tells the longer story. */
export const HISTORY_LIMIT = 50;

export const getLead = defineOperation({
  name: 'get_lead',
  summary: 'Get a lead with its activity history',
  description:
    'Returns one lead with its fields, engagement_score and history, newest first: views (share and seconds ' +
    `watched), CTA clicks, route choices, form submissions, notes, status changes and outcomes. Shows the latest ${HISTORY_LIMIT} ` +
    'entries; history_omitted counts the older ones.',
  method: 'GET',
  path: '/leads/{lead_id}',
  group: 'Leads',
  scope: 'leads:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object({ lead_id: LeadId }, { additionalProperties: false }),
  output: LeadDetail,
  example: { lead_id: '3f1c2a4e-8b7d-4c6a-9e5f-2d1b0a9c8e7f' },
  async handler(ctx, input) {
    const lead = await leadSnapshot(ctx.db, ctx.workspaceId, input.lead_id, ctx.now);
    const timeline = await leadTimeline(ctx.db, ctx.workspaceId, input.lead_id, HISTORY_LIMIT);
    return {
      ...lead,
      history: timeline.entries,
      history_total: timeline.total,
      history_omitted: timeline.total - timeline.entries.length,
    };
  },
});
