/**
 * list_leads: the workspace's leads, most engaged first by default, filtered by the video they
 * watched, status, source, capture dates or a search. Reads only. A video_id that is not a video of
 * the workspace is not_found, not an empty list.
 */
import { Type } from 'typebox';
import { addDays, startOfLocalDay } from '../../../core/calendar/calendar-days.ts';
import { AppError } from '../../../core/errors.ts';
import { Pagination, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
import { ResourceId, StringEnum } from '../../../core/schemas.ts';
import { assertVideoInWorkspace } from '../../videos/index.ts';
import { workspaceTimeZone } from '../../workspace/index.ts';
import { LEAD_SOURCES, LeadSnapshot } from '../leads.events.ts';
import { LEAD_SORTS, listLeads as queryLeads } from '../leads.queries.ts';
import { LeadStatus } from '../leads.schemas.ts';

const Day = (description: string) => Type.String({ format: 'date', description });

/** Before the start of the next day; 9999-12-31, the last day a date can name, has no next day and no bound. */
function endOfDay(day: string, timeZone: string): { capturedBefore?: Date } {
  const next = addDays(day, 1);
  return /^\d{4}-\d{2}-\d{2}$/.test(next) ? { capturedBefore: startOfLocalDay(next, timeZone) } : {};
}

export const listLeads = defineOperation({
  name: 'list_leads',
  summary: 'List leads, most engaged first',
  description:
    'Lists captured leads with status, tags, source and engagement_score (0–100, recency-weighted). Filter by a ' +
    'video they watched or were captured on, status, source, capture dates (workspace time zone, inclusive) or a ' +
    'search over name, email and notes (while pii_redacted, a whole email or name); sort engagement (default), ' +
    'newest or oldest.',
  method: 'GET',
  path: '/leads',
  group: 'Leads',
  scope: 'leads:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object(
    {
      video_id: Type.Optional(ResourceId('video', 'Only leads who watched this video or were captured on it.')),
      status: Type.Optional(LeadStatus),
      source: Type.Optional(StringEnum(LEAD_SOURCES, { description: 'Only leads that first arrived this way.' })),
      from_date: Type.Optional(Day('Only leads captured on or after this day (YYYY-MM-DD).')),
      to_date: Type.Optional(Day('Only leads captured on or before this day (YYYY-MM-DD).')),
      search: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Text to find in the name, email or notes (case-insensitive); while masked, a whole email or name.',
        }),
      ),
      sort: Type.Optional(StringEnum(LEAD_SORTS, { default: 'engagement', description: 'Order of the list.' })),
      ...PaginationInput,
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      leads: Type.Array(LeadSnapshot),
      pagination: Pagination,
      pii_redacted: Type.Boolean({ description: 'true when names, emails and phones are masked (the workspace’s mask_pii).' }),
    },
    { additionalProperties: false },
  ),
  example: { status: 'engaged', sort: 'engagement', limit: 20 },
  async handler(ctx, input) {
    const { limit, cursor, ...rest } = input;
    const filters = { ...rest, sort: rest.sort ?? 'engagement' };
    if (filters.from_date && filters.to_date && filters.from_date > filters.to_date) {
      throw AppError.invalid([{ field: 'from_date', problem: `must be on or before to_date (${filters.to_date})` }]);
    }
    if (filters.video_id) await assertVideoInWorkspace(ctx.db, ctx.workspaceId, filters.video_id);
    const timeZone = filters.from_date || filters.to_date ? await workspaceTimeZone(ctx.db, ctx.workspaceId) : 'UTC';
    const query = {
      ...filters,
      personalFieldsWhole: ctx.principal.maskPii,
      ...(filters.from_date ? { capturedFrom: startOfLocalDay(filters.from_date, timeZone) } : {}),
      ...(filters.to_date ? endOfDay(filters.to_date, timeZone) : {}),
    };
    const page = await paginate(ctx.cursors, input, filters, (request) => queryLeads(ctx.db, ctx.workspaceId, query, request, ctx.now));
    return { leads: page.items, pagination: page.pagination, pii_redacted: ctx.principal.maskPii };
  },
});
