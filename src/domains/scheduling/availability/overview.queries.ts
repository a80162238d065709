/**
 * What get_scheduling_overview reads besides each type's slot context: the event types (active
 * first, by name, a bounded number) with the count of each kind, and the starts of the confirmed
 * bookings in the span the overview counts, by event type.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, EventTypeRow } from '../../../db/tables/index.ts';

/** Event types the overview computes: each costs a slot-engine pass over 28 days. */
export const OVERVIEW_EVENT_TYPES = 50;
/**
 * Booking starts read at most. Confirmed bookings do not overlap, so 118 days hold at most 34,000
 * of the shortest (5-minute) calls; the bound only guards against rows written around the checks.
 */
const MAX_BOOKING_STARTS = 50_000;

export async function overviewEventTypes(
  db: Kysely<Database>,
  workspaceId: string,
): Promise<{ rows: EventTypeRow[]; active: number; inactive: number }> {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom('event_types')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('active', 'desc')
      .orderBy('name')
      .orderBy('id')
      .limit(OVERVIEW_EVENT_TYPES)
      .execute(),
    db
      .selectFrom('event_types')
      .select(['active', sql<number>`count(*)::int`.as('count')])
      .where('workspace_id', '=', workspaceId)
      .groupBy('active')
      .execute(),
  ]);
  const count = (active: boolean) => Number(counts.find((row) => row.active === active)?.count ?? 0);
  return { rows, active: count(true), inactive: count(false) };
}

export async function bookingStartsByType(db: Kysely<Database>, workspaceId: string, from: Date, to: Date): Promise<Map<string, Date[]>> {
  const rows = await db
    .selectFrom('bookings')
    .select(['event_type_id', 'starts_at'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'confirmed')
    .where('starts_at', '>=', from)
    .where('starts_at', '<', to)
    .orderBy('starts_at')
    .limit(MAX_BOOKING_STARTS)
    .execute();
  const byType = new Map<string, Date[]>();
  for (const row of rows) {
    const starts = byType.get(row.event_type_id) ?? [];
    starts.push(row.starts_at);
    byType.set(row.event_type_id, starts);
  }
  return byType;
}
