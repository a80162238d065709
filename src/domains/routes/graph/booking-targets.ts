/**
 * The booking targets of an add_route_branches call: each `event_type_id` must be an event type of
 * the workspace (another workspace's reads as unknown: not_found, AppError.refusing), active (an
 * inactive one offers no slots, so its booking page books nothing), and the workspace's plan must
 * include scheduling (the booking page answers "not available" otherwise). Every problem is one of
 * the call's, named with the others. Reads the ids as sent: anything but a well-formed id is the
 * schema's to name.
 */
import type { Kysely } from 'kysely';
import { type FieldProblem, unknownId } from '../../../core/errors.ts';
import { PLANS } from '../../../core/plans.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database } from '../../../db/tables/index.ts';
import { eventTypesWithIds } from '../../scheduling/index.ts';
import { workspaceFacts } from '../../workspace/index.ts';

export interface BookingTargets {
  problems: FieldProblem[];
  /** By branch index: the event type of each booking choice that has no problem. */
  eventTypeIds: Map<number, string>;
}

export async function checkBookingTargets(db: Kysely<Database>, workspaceId: string, ids: readonly unknown[]): Promise<BookingTargets> {
  const asked = new Map<number, string>();
  ids.forEach((id, index) => {
    if (typeof id === 'string' && isUuid(id)) asked.set(index, id.toLowerCase());
  });
  const result: BookingTargets = { problems: [], eventTypeIds: new Map() };
  if (asked.size === 0) return result;
  const [eventTypes, workspace] = await Promise.all([
    eventTypesWithIds(db, workspaceId, [...new Set(asked.values())]),
    workspaceFacts(db, workspaceId),
  ]);
  const byId = new Map(eventTypes.map((row) => [row.id, row]));
  const scheduling = workspace !== undefined && PLANS[workspace.plan].entitlements.has('scheduling');
  for (const [index, id] of asked) {
    const field = `branches[${index}].event_type_id`;
    const eventType = byId.get(id);
    if (!eventType) result.problems.push(unknownId(field, 'event type', id));
    else if (!eventType.active) {
      result.problems.push({
        field,
        problem: `is inactive (“${eventType.name}”), so its booking page books nothing; reactivate it with update_event_type or choose an active one`,
      });
    } else if (!scheduling) {
      result.problems.push({
        field,
        problem: `needs scheduling, which the ${workspace?.plan} plan does not include: its booking page would not open`,
      });
    } else result.eventTypeIds.set(index, id);
  }
  return result;
}
