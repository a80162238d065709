/**
 * The lead a booking captures or enriches, by the invitee's email (source `booking` for a new one),
 * and the `booking` steps of its history. Like a watch page's form, a booking only fills what the
 * lead lacks: anyone can type anyone's address into a public booking page, so a booking never
 * renames a known lead, changes its phone or respells its email.
 */
import type { Kysely } from 'kysely';
import type { Emit } from '../../../core/context.ts';
import type { Database } from '../../../db/tables/index.ts';
import {
  emitLeadChange,
  type LeadFields,
  leadContactByEmail,
  leadSnapshot,
  linkViewerToLead,
  recordLeadActivity,
  upsertLeadRecord,
} from '../../leads/index.ts';

export interface BookingLeadRequest {
  workspaceId: string;
  invitee: { email: string; name: string | null; phone: string | null };
  /** The browser that booked (the player's viewer id), linked to the lead so its viewing joins the journey. */
  viewerId: string | null;
  videoId: string | null;
  author: string;
  at: Date;
}

/** Creates or enriches the lead (emitting lead.created or lead.updated) and links the browser; the lead's id and whether it is new. */
export async function captureBookingLead(
  db: Kysely<Database>,
  request: BookingLeadRequest,
  emit: Emit,
): Promise<{ leadId: string; created: boolean }> {
  const { workspaceId, at } = request;
  const fields = await fillingWhatTheLeadLacks(db, workspaceId, request.invitee);
  const upserted = await upsertLeadRecord(db, {
    workspaceId,
    fields,
    author: request.author,
    source: 'booking',
    sourceVideoId: request.videoId,
    at,
  });
  const leadId = upserted.lead.id;
  if (request.viewerId) await linkViewerToLead(db, { workspaceId, viewerId: request.viewerId, leadId, at });
  await emitLeadChange(emit, {
    leadId,
    created: upserted.created,
    changed: upserted.changed,
    lead: () => leadSnapshot(db, workspaceId, leadId, at),
  });
  return { leadId, created: upserted.created };
}

async function fillingWhatTheLeadLacks(
  db: Kysely<Database>,
  workspaceId: string,
  invitee: BookingLeadRequest['invitee'],
): Promise<LeadFields> {
  const existing = await leadContactByEmail(db, workspaceId, invitee.email);
  if (!existing) return { email: invitee.email.trim(), name: invitee.name, phone: invitee.phone };
  const fields: LeadFields = { email: existing.email };
  if (invitee.name && existing.name === null && existing.first_name === null) fields.name = invitee.name;
  if (invitee.phone && existing.phone === null) fields.phone = invitee.phone;
  return fields;
}

export type BookingAction = 'booked' | 'rescheduled' | 'canceled';

/**
 * A `booking` step in the lead's history. Its facts are named so the journey shows them all
 * (lead-timeline.queries.ts drops any named like a personal field): the event type's name is `event_type`.
 */
export async function recordBookingActivity(
  db: Kysely<Database>,
  step: {
    workspaceId: string;
    leadId: string;
    videoId: string | null;
    action: BookingAction;
    booking: { id: string; event_type_id: string; starts_at: Date; ends_at: Date };
    eventTypeName: string;
    facts?: Record<string, string | null>;
    at: Date;
  },
): Promise<void> {
  await recordLeadActivity(db, {
    workspaceId: step.workspaceId,
    leadId: step.leadId,
    kind: 'booking',
    videoId: step.videoId,
    data: {
      action: step.action,
      booking_id: step.booking.id,
      event_type_id: step.booking.event_type_id,
      event_type: step.eventTypeName,
      start: step.booking.starts_at.toISOString(),
      end: step.booking.ends_at.toISOString(),
      ...step.facts,
    },
    at: step.at,
  });
}
