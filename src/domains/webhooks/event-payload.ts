/**
 * The JSON body every delivery sends (DESIGN §4): `{ id, type, created_at, workspace_id, data }`.
 * Built once per event, so every endpoint and every attempt gets the same bytes. While the workspace
 * masks personal data, lead fields are masked here exactly as in API responses (core/pii.ts): events
 * carry a lead under `data.lead` and a booking's invitee under `data.booking`, and those fields are
 * declared personal below, so a capability that adds lead events gets masking by following the shape.
 */
import { Type } from 'typebox';
import { maskPersonalData, PersonalString } from '../../core/pii.ts';

const Lead = Type.Object({
  email: PersonalString('email'),
  phone: PersonalString('phone'),
  name: PersonalString('name'),
  first_name: PersonalString('name'),
  last_name: PersonalString('name'),
});

const Booking = Type.Object({
  invitee_email: PersonalString('email'),
  invitee_phone: PersonalString('phone'),
  invitee_name: PersonalString('name'),
  lead: Lead,
});

/** The personal fields any event's `data` may carry; fields not named here pass through unchanged. */
const EventData = Type.Object({ lead: Lead, booking: Booking }) as unknown as Parameters<typeof maskPersonalData>[0];

export interface OutboxEvent {
  id: string;
  type: string;
  workspaceId: string;
  createdAt: Date;
  data: Record<string, unknown>;
}

export function eventPayload(event: OutboxEvent, maskPii: boolean): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    workspace_id: event.workspaceId,
    data: maskPii ? maskPersonalData(EventData, event.data) : event.data,
  });
}
