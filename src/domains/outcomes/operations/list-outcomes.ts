/**
 * list_outcomes: the revenue ledger, newest first, filtered by dates (calendar days in the workspace
 * time zone), kind, status, lead and video (named, first or last touch), with totals per currency
 * over the whole filter. Reads only; lead fields masked while the workspace masks. A lead_id or
 * video_id that is not the workspace's is not_found, not an empty ledger.
 */
import { Type } from 'typebox';
import { addDays, startOfLocalDay } from '../../../core/calendar/calendar-days.ts';
import { AppError } from '../../../core/errors.ts';
import { ListOutput, PaginationInput, paginate } from '../../../core/lists/pagination.ts';
import { defineOperation } from '../../../core/operation.ts';
import { ResourceId, StringEnum } from '../../../core/schemas.ts';
import { LATEST_YEAR } from '../../../core/values/real-instants.ts';
import { IsoDate } from '../../analytics/index.ts';
import { assertLeadInWorkspace } from '../../leads/index.ts';
import { assertVideoInWorkspace } from '../../videos/index.ts';
import { workspaceTimeZone } from '../../workspace/index.ts';
import { OUTCOME_KINDS, OUTCOME_STATUSES } from '../outcomes.events.ts';
import { type CurrencyTotal, type OutcomeFilters, outcomeTotals, listOutcomes as queryOutcomes } from '../outcomes.queries.ts';
import { Outcome, OutcomeTotals } from '../outcomes.schemas.ts';

const Listed = ListOutput('outcomes', Outcome);
const LAST_DAY = `${LATEST_YEAR}-12-31`;

export const listOutcomes = defineOperation({
  name: 'list_outcomes',
  summary: 'List the revenue ledger',
  description:
    'Lists purchases, booked calls and refunds, newest first, each with value (minor units), currency, lead and the ' +
    'videos it is attributed to. video_id matches the video named, the first touch or the last touch. totals gives, per ' +
    'currency, the count and net (succeeded purchases minus succeeded refunds) over the whole filter.',
  method: 'GET',
  path: '/outcomes',
  group: 'Outcomes',
  scope: 'outcomes:read',
  write: false,
  errors: ['not_found'],
  input: Type.Object(
    {
      from_date: Type.Optional(IsoDate('First day (YYYY-MM-DD, workspace time zone), included.')),
      to_date: Type.Optional(IsoDate('Last day, included.')),
      kind: Type.Optional(StringEnum(OUTCOME_KINDS)),
      status: Type.Optional(StringEnum(OUTCOME_STATUSES)),
      lead_id: Type.Optional(ResourceId('lead', 'Only this lead’s entries.')),
      video_id: Type.Optional(ResourceId('video', 'Entries naming this video or attributed to it.')),
      ...PaginationInput,
    },
    { additionalProperties: false },
  ),
  output: Type.Object(
    {
      ...Listed.properties,
      totals: OutcomeTotals,
      pii_redacted: Type.Boolean({ description: 'true while the workspace masks lead fields (mask_pii).' }),
    },
    { additionalProperties: false },
  ),
  example: { kind: 'purchase', from_date: '2026-10-01', limit: 20 },
  async handler(ctx, input) {
    const { limit: _limit, cursor: _cursor, ...filters } = input;
    if (input.from_date && input.to_date && input.from_date > input.to_date) {
      throw AppError.invalid([{ field: 'from_date', problem: `must be on or before to_date (${input.to_date})` }]);
    }
    if (input.lead_id) await assertLeadInWorkspace(ctx.db, ctx.workspaceId, input.lead_id);
    if (input.video_id) await assertVideoInWorkspace(ctx.db, ctx.workspaceId, input.video_id);
    const timeZone = input.from_date || input.to_date ? await workspaceTimeZone(ctx.db, ctx.workspaceId) : 'UTC';
    const query: OutcomeFilters = {
      from: input.from_date ? startOfLocalDay(input.from_date, timeZone) : undefined,
      // The last day there is has no next day to stop before: no upper bound then.
      before: input.to_date && input.to_date < LAST_DAY ? startOfLocalDay(addDays(input.to_date, 1), timeZone) : undefined,
      kind: input.kind,
      status: input.status,
      leadId: input.lead_id,
      videoId: input.video_id,
    };
    // The totals per currency count the entries too: the list's total is their sum, not a second scan.
    const totalsAsked = outcomeTotals(ctx.db, ctx.workspaceId, query);
    const counted = (rows: CurrencyTotal[]) => rows.reduce((sum, row) => sum + row.count, 0);
    const [page, totals] = await Promise.all([
      paginate(ctx.cursors, input, filters, (request) => queryOutcomes(ctx.db, ctx.workspaceId, query, request, totalsAsked.then(counted))),
      totalsAsked,
    ]);
    return {
      outcomes: page.items,
      pagination: page.pagination,
      totals: { count: page.pagination.total, by_currency: totals },
      pii_redacted: ctx.principal.maskPii,
    };
  },
});
