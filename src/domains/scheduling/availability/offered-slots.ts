/**
 * The slots a window offers, and nothing else: what the public booking page lists. Judged by the
 * same engine, rules and context as get_scheduling_availability and the booking check, so a slot the
 * page shows is one a booking of it would get (unless someone takes it first).
 */
import type { Kysely } from 'kysely';
import type { Database, EventTypeRow } from '../../../db/tables/index.ts';
import { slotsInWindow } from './availability.ts';
import { rulesOf } from './event-type-rules.ts';
import { loadSlotContext } from './slot-context.queries.ts';

export interface OfferedSlot {
  start: Date;
  end: Date;
}

/** Offered starts in [from, to), earliest first. Throws SlotWindowError (400) for a window over 31 days. */
export async function offeredSlots(
  db: Kysely<Database>,
  eventType: EventTypeRow,
  window: { from: Date; to: Date; now: Date },
): Promise<OfferedSlot[]> {
  const context = await loadSlotContext(db, { workspaceId: eventType.workspace_id, eventTypeId: eventType.id, ...window });
  return slotsInWindow(rulesOf(eventType), { ...context, from: window.from, to: window.to })
    .filter((verdict) => verdict.offered)
    .map((verdict) => ({ start: verdict.start, end: verdict.end }));
}
