/**
 * The JSON body every delivery sends (DESIGN §4): `{ id, type, created_at, workspace_id, data }`.
 * Built once per event, so every endpoint and every attempt gets the same bytes. While the workspace
 * masks personal data, the fields its type's schema (its area's <area>.events.ts) marks with PersonalString are
 * masked exactly as in API responses (core/pii.ts): an event type that carries a lead gets masking
 * by declaring its fields, with nothing to add here.
 */
import { hasPersonalData, maskPersonalData } from '../../core/pii.ts';
import { EVENT_CATALOG, type EventType, isEventType } from '../../event-catalog.ts';

export interface OutboxEvent {
  id: string;
  type: string;
  workspaceId: string;
  createdAt: Date;
  data: unknown;
}

type MaskSchema = Parameters<typeof maskPersonalData>[0];
const dataSchema = (type: EventType) => EVENT_CATALOG[type].data as unknown as MaskSchema;
const personal = new Map<string, boolean>();

/** Whether events of this type carry personal data (only those payloads are walked to mask them). */
function carriesPersonalData(type: string): boolean {
  let found = personal.get(type);
  if (found === undefined) {
    found = isEventType(type) && hasPersonalData(dataSchema(type));
    personal.set(type, found);
  }
  return found;
}

export function eventPayload(event: OutboxEvent, maskPii: boolean): string {
  const { type } = event;
  const masked = maskPii && isEventType(type) && carriesPersonalData(type);
  return JSON.stringify({
    id: event.id,
    type,
    created_at: event.createdAt.toISOString(),
    workspace_id: event.workspaceId,
    data: masked ? maskPersonalData(dataSchema(type), event.data) : event.data,
  });
}
