/**
 * The events outbox. Every write records what happened in the same transaction as the change, so no
 * change goes without its event and no event without its change; webhook delivery reads from here.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';

export const EVENT_TYPES = [
  'video.created',
  'video.ready',
  'video.failed',
  'video.updated',
  'lead.created',
  'lead.updated',
  'booking.created',
  'booking.canceled',
  'outcome.created',
  'route.completed',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export async function recordEvent(
  db: Kysely<Database>,
  event: { workspaceId: string; type: EventType; data: Record<string, unknown>; at: Date },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('events')
    .values({ id, workspace_id: event.workspaceId, type: event.type, data: JSON.stringify(event.data), created_at: event.at })
    .execute();
  return id;
}
