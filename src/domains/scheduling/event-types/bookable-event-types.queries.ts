/**
 * What the public booking page (src/transports/public/booking/booking-page.ts) and the watch pages' "Book a call" read.
 * Public requests name an event type by its unguessable id alone, without a workspace, as watch
 * pages name a video: it is bookable when it is active and its workspace's plan includes
 * scheduling (a workspace moved to free stops taking bookings); anything else is not found.
 */
import type { Kysely } from 'kysely';
import { PLANS } from '../../../core/plans.ts';
import { isUuid } from '../../../core/values/real-instants.ts';
import type { Database, EventTypeRow } from '../../../db/tables/index.ts';
import { workspaceSettings } from '../../workspace/index.ts';

export type BookableEventType = EventTypeRow;

/** The bookable event type with this id, or undefined (malformed id, none, inactive, or no scheduling in the plan). */
export async function findBookableEventType(db: Kysely<Database>, eventTypeId: string): Promise<BookableEventType | undefined> {
  if (!isUuid(eventTypeId)) return undefined;
  const row = await db
    .selectFrom('event_types as e')
    .innerJoin(workspaceSettings(db).as('w'), 'w.id', 'e.workspace_id')
    .selectAll('e')
    .select('w.plan')
    .where('e.id', '=', eventTypeId.toLowerCase())
    .executeTakeFirst();
  if (!row?.active || !PLANS[row.plan].entitlements.has('scheduling')) return undefined;
  const { plan: _plan, ...eventType } = row;
  return eventType;
}
