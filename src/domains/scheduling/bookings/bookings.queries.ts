/**
 * Reading bookings as the booking operations answer them: each with its event type and the value of
 * its ledger entry, scoped to the workspace. The lists by scope are keyset pages (core/lists/keyset-page.ts)
 * served by bookings_start_idx.
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Static } from 'typebox';
import { foundInWorkspace } from '../../../core/find-in-workspace.ts';
import { type KeysetOrder, keysetPage } from '../../../core/lists/keyset-page.ts';
import type { KeysetRows, PageRequest } from '../../../core/lists/pagination.ts';
import type { BookingStatus, Database } from '../../../db/tables/index.ts';
import { ledgerEntryValues } from '../../outcomes/index.ts';
import { zonedIso } from '../availability/zoned-time.ts';
import type { BookingDetail } from './bookings.schemas.ts';

type Detail = Static<typeof BookingDetail>;
type BookingsAsB = Database & { b: Database['bookings'] };

/** The booking's columns with its event type's and its ledger entry's value, within the workspace. */
function withParts<O>(db: Kysely<Database>, workspaceId: string, query: SelectQueryBuilder<BookingsAsB, 'b', O>) {
  return query
    .innerJoin('event_types as et', 'et.id', 'b.event_type_id')
    .leftJoin(ledgerEntryValues(db, workspaceId).as('o'), 'o.id', 'b.outcome_id')
    .selectAll('b')
    .select([
      'et.name as event_type_name',
      'et.location as event_type_location',
      'et.time_zone as event_type_zone',
      'o.amount',
      'o.currency',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof withParts<object>>['executeTakeFirstOrThrow']>>;

function toDetail(row: Row): Detail {
  const zone = row.invitee_timezone ?? row.event_type_zone;
  return {
    booking_id: row.id,
    event_type: { event_type_id: row.event_type_id, name: row.event_type_name, location: row.event_type_location },
    status: row.status,
    start: row.starts_at.toISOString(),
    end: row.ends_at.toISOString(),
    invitee_timezone: zone,
    invitee_start: zonedIso(row.starts_at, zone),
    invitee_end: zonedIso(row.ends_at, zone),
    invitee_email: row.invitee_email,
    invitee_name: row.invitee_name,
    invitee_phone: row.invitee_phone,
    lead_id: row.lead_id,
    outcome_id: row.outcome_id,
    value: row.amount !== null && row.currency !== null ? { amount: Number(row.amount), currency: row.currency } : null,
    video_id: row.video_id,
    route_id: row.route_id,
    rescheduled_at: row.rescheduled_at?.toISOString() ?? null,
    canceled_at: row.canceled_at?.toISOString() ?? null,
    canceled_by: row.canceled_by,
    cancel_reason: row.cancel_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** One booking as get_booking answers it, or not_found. */
export async function bookingDetail(db: Kysely<Database>, workspaceId: string, bookingId: string): Promise<Detail> {
  const row = await withParts(
    db,
    workspaceId,
    db.selectFrom('bookings as b').where('b.workspace_id', '=', workspaceId).where('b.id', '=', bookingId),
  ).executeTakeFirst();
  return toDetail(foundInWorkspace(row, 'bookings', bookingId));
}

export const BOOKING_SCOPES = ['upcoming', 'past', 'all'] as const;
export type BookingScope = (typeof BOOKING_SCOPES)[number];

export interface BookingFilters {
  scope: BookingScope;
  eventTypeId?: string | undefined;
  status?: BookingStatus | undefined;
  now: Date;
}

const SOONEST: KeysetOrder = {
  direction: 'asc',
  columns: [
    { expression: 'b.starts_at', type: 'timestamptz' },
    { expression: 'b.id', type: 'uuid' },
  ],
};
const LATEST: KeysetOrder = { ...SOONEST, direction: 'desc' };

/**
 * upcoming: confirmed calls not yet over (end after now), soonest first (a status filter can ask for
 * canceled ones instead); past: calls already over, most recent first; all: every booking, most
 * recent start first.
 */
export function listBookingRows(
  db: Kysely<Database>,
  workspaceId: string,
  filters: BookingFilters,
  page: PageRequest,
): Promise<KeysetRows<Detail>> {
  let query = db.selectFrom('bookings as b').where('b.workspace_id', '=', workspaceId);
  if (filters.scope === 'upcoming') {
    query = query.where('b.ends_at', '>', filters.now).where('b.status', '=', filters.status ?? 'confirmed');
  } else {
    if (filters.scope === 'past') query = query.where('b.ends_at', '<=', filters.now);
    if (filters.status) query = query.where('b.status', '=', filters.status);
  }
  if (filters.eventTypeId) query = query.where('b.event_type_id', '=', filters.eventTypeId);
  const order = filters.scope === 'upcoming' ? SOONEST : LATEST;
  return keysetPage(query, (filtered) => withParts(db, workspaceId, filtered), order, page).then((page) => ({
    ...page,
    rows: page.rows.map(toDetail),
  }));
}
