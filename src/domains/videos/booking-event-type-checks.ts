/**
 * update_video's `booking_event_type_id` (the watch page's "Book a call"): it must name an active
 * event type of the video's workspace, and the workspace's plan must include scheduling, or the
 * button would lead to a booking page that answers 404. An id no event type of the workspace has is
 * not_found once the rest of the input is well-shaped (AppError.refusing). Checked the same way by
 * the pipeline on an input whose shape is wrong too (Operation.databaseProblems), so one answer
 * lists every problem, and by the handler on a valid one. It reads the input as sent, trusting nothing.
 */
import type { Kysely } from 'kysely';
import { type FieldProblem, unknownId } from '../../core/errors.ts';
import { PLANS } from '../../core/plans.ts';
import { isUuid } from '../../core/values/real-instants.ts';
import type { Database } from '../../db/tables/index.ts';
import { eventTypeStates } from '../scheduling/index.ts';
import { workspaceFactsTable } from '../workspace/index.ts';

const FIELD = 'booking_event_type_id';

/** The problems of the event type named in `input` (none when the field is absent, null or not an id: the schema names those). */
export async function bookingEventTypeProblems(db: Kysely<Database>, workspaceId: string, input: unknown): Promise<FieldProblem[]> {
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[FIELD] : undefined;
  if (typeof value !== 'string' || !isUuid(value)) return [];
  // One statement: the workspace's plan, and the event type when the workspace has it.
  const row = await db
    .selectFrom(workspaceFactsTable(db).as('w'))
    .leftJoin(eventTypeStates(db, workspaceId).as('e'), (join) =>
      join.onRef('e.workspace_id', '=', 'w.id').on('e.id', '=', value.toLowerCase()),
    )
    .select(['w.plan', 'e.id', 'e.active'])
    .where('w.id', '=', workspaceId)
    .executeTakeFirst();
  const problems: FieldProblem[] = [];
  if (row && !PLANS[row.plan].entitlements.has('scheduling')) {
    problems.push({ field: FIELD, problem: `needs the scheduling entitlement, which the ${row.plan} plan does not include` });
  }
  if (!row?.id) problems.push(unknownId(FIELD, 'event type', value));
  else if (!row.active) problems.push({ field: FIELD, problem: 'names an inactive event type; activate it first or choose another' });
  return problems;
}
