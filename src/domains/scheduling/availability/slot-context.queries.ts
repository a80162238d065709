/**
 * What a slot is judged against besides its rules, read for a span of time: the workspace's
 * confirmed bookings (of every event type: one host, one calendar) and the busy times its calendar
 * feeds last reported. A booking of another event type blocks time under its own buffers but does
 * not count toward this type's daily cap.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/tables/index.ts';
import type { SlotContext } from './scheduling-rules.ts';

const DAY_MS = 86_400_000;
/**
 * Read this much beyond the span: a slot's buffers reach a day out at most (RULE_BOUNDS), and the
 * daily cap counts whole local days, which reach up to 14 hours either side of a UTC day.
 */
const CONTEXT_MARGIN_MS = 2 * DAY_MS;

export interface SlotContextRequest {
  workspaceId: string;
  eventTypeId: string;
  from: Date;
  to: Date;
  now: Date;
}

export async function loadSlotContext(db: Kysely<Database>, request: SlotContextRequest): Promise<SlotContext> {
  const from = new Date(request.from.getTime() - CONTEXT_MARGIN_MS);
  const to = new Date(request.to.getTime() + CONTEXT_MARGIN_MS);
  const [bookings, busy] = await Promise.all([
    db
      .selectFrom('bookings')
      .select(['id', 'event_type_id', 'starts_at', 'ends_at', 'buffer_before_minutes', 'buffer_after_minutes'])
      .where('workspace_id', '=', request.workspaceId)
      .where('status', '=', 'confirmed')
      .where('starts_at', '<', to)
      .where('ends_at', '>', from)
      .orderBy('starts_at')
      .execute(),
    db
      .selectFrom('calendar_busy_times as busy')
      .innerJoin('calendar_feeds as feed', 'feed.id', 'busy.feed_id')
      .select(['busy.starts_at', 'busy.ends_at', 'feed.name'])
      .where('busy.workspace_id', '=', request.workspaceId)
      .where('busy.starts_at', '<', to)
      .where('busy.ends_at', '>', from)
      .orderBy('busy.starts_at')
      .execute(),
  ]);
  return {
    now: request.now,
    bookings: bookings.map((booking) => ({
      id: booking.id,
      start: booking.starts_at,
      end: booking.ends_at,
      countsTowardCap: booking.event_type_id === request.eventTypeId,
      bufferBeforeMinutes: booking.buffer_before_minutes,
      bufferAfterMinutes: booking.buffer_after_minutes,
    })),
    busy: busy.map((interval) => ({ start: interval.starts_at, end: interval.ends_at, feed: interval.name })),
  };
}
