/**
 * Creating and enriching leads, written once: upsert_lead, the watch-page form, record_outcome (an
 * unknown email) and Stripe payments all come through `upsertLeadRecord`, so the merging rules
 * (docs/leads-and-outcomes.md, "Adding and enriching") cannot drift between them. Also the small
 * writes every lead path shares: activity, viewer links and engagement points.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { AppError, type FieldProblem } from '../../core/errors.ts';
import { outboxEmitter } from '../../db/outbox.ts';
import type { Database, LeadActivityKind, LeadRow, LeadSource, LeadStatus } from '../../db/tables/index.ts';
import { videoTitles } from '../videos/index.ts';
import { countNewLead, recentViewsOfViewer, totalLength } from '../viewing/index.ts';
import { addEngagement, decayedPoints, engagementScore, sessionPoints } from './engagement-score.ts';
import { emitLeadChange } from './lead-change-events.ts';
import { AUTOMATIC_AUTHOR, automaticStatus } from './lead-status.ts';
import type { LeadSnapshot } from './leads.events.ts';

export type CustomFieldValue = string | number | boolean | null;

/** Limits on what a lead holds, whatever path adds to it (Stripe's metadata limits, roughly). */
export const LEAD_LIMITS = { tags: 100, customFields: 50, customFieldKey: 40, customFieldValue: 500, note: 5000 } as const;

/** The fields a writer may send; absent means "leave as it is". */
export interface LeadFields {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  name?: string | null;
  phone?: string | null;
  status?: LeadStatus;
  /** Added to the lead's tags (upsert); update_lead replaces them itself. */
  tags?: readonly string[];
  /** Merged key by key; a null value removes that key. */
  custom_fields?: Readonly<Record<string, CustomFieldValue>>;
}

export interface UpsertLeadRequest {
  workspaceId: string;
  fields: LeadFields;
  /** Appended as one note, when given. */
  note?: string;
  /** Who acted: a credential's name, "watch page", "Stripe". Notes and status changes carry it. */
  author: string;
  /** Where a new lead came from; an existing lead keeps its source. */
  source: LeadSource;
  /** The video whose form captured it (source `video`). */
  sourceVideoId?: string | null;
  at: Date;
}

export interface UpsertLeadResult {
  lead: LeadRow;
  created: boolean;
  /** Field names that changed (empty when an enrichment changed nothing). */
  changed: string[];
}

/** Emails are compared trimmed and case-insensitively; stored trimmed, as given. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates the lead with this email or enriches the one that has it: sent fields overwrite, tags are
 * added, custom fields merge key by key (null removes a key), the note is appended. Safe under
 * concurrent calls for the same email (the insert yields to the unique index, then the row is
 * locked). Bounds on the merged result are `invalid_request` naming the field.
 */
export async function upsertLeadRecord(db: Kysely<Database>, request: UpsertLeadRequest): Promise<UpsertLeadResult> {
  const { workspaceId, fields, at } = request;
  const email = fields.email.trim();
  const id = randomUUID();
  const inserted = await db
    .insertInto('leads')
    .values({
      id,
      workspace_id: workspaceId,
      email,
      first_name: fields.first_name ?? null,
      last_name: fields.last_name ?? null,
      name: fields.name ?? null,
      phone: fields.phone ?? null,
      status: fields.status ?? 'new',
      tags: checkedTags(uniqueTags([], fields.tags ?? [])),
      custom_fields: JSON.stringify(checkedCustomFields(mergeCustomFields({}, fields.custom_fields ?? {}))),
      source: request.source,
      source_video_id: request.sourceVideoId ?? null,
      last_activity_at: at,
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) {
    await countNewLead(db, workspaceId, at);
    if (request.note)
      await recordLeadActivity(db, { workspaceId, leadId: id, kind: 'note', data: { body: request.note, author: request.author }, at });
    return { lead: inserted, created: true, changed: [] };
  }

  const existing = await db
    .selectFrom('leads')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(sql<string>`lower(email)`, '=', emailKey(email))
    .forUpdate()
    .executeTakeFirstOrThrow();
  const update: { email?: string } & Partial<Record<'first_name' | 'last_name' | 'name' | 'phone', string | null>> = {};
  const changed: string[] = [];
  if (existing.email !== email) {
    update.email = email;
    changed.push('email');
  }
  for (const field of ['first_name', 'last_name', 'name', 'phone'] as const) {
    const value = fields[field];
    if (value !== undefined && value !== existing[field]) {
      update[field] = value;
      changed.push(field);
    }
  }
  const tags = fields.tags ? checkedTags(uniqueTags(existing.tags, fields.tags)) : existing.tags;
  if (tags.length !== existing.tags.length) changed.push('tags');
  const customFields = fields.custom_fields
    ? checkedCustomFields(mergeCustomFields(existing.custom_fields, fields.custom_fields))
    : existing.custom_fields;
  if (JSON.stringify(customFields) !== JSON.stringify(existing.custom_fields)) changed.push('custom_fields');
  const status = fields.status && fields.status !== existing.status ? fields.status : undefined;
  if (status) {
    changed.push('status');
    await recordLeadActivity(db, {
      workspaceId,
      leadId: existing.id,
      kind: 'status_changed',
      data: { from: existing.status, to: status, author: request.author },
      at,
    });
  }
  // The same note sent again (a retried upsert) is not appended twice: repeating an upsert changes nothing.
  if (request.note && !(await isLatestNote(db, existing.id, request.note))) {
    changed.push('notes');
    await recordLeadActivity(db, {
      workspaceId,
      leadId: existing.id,
      kind: 'note',
      data: { body: request.note, author: request.author },
      at,
    });
  }
  if (changed.length === 0) return { lead: existing, created: false, changed };
  const lead = await db
    .updateTable('leads')
    .set({
      ...update,
      ...(status ? { status } : {}),
      tags,
      custom_fields: JSON.stringify(customFields),
      updated_at: at,
      last_activity_at: laterOf(at, existing.last_activity_at),
    })
    .where('id', '=', existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { lead, created: false, changed };
}

async function isLatestNote(db: Kysely<Database>, leadId: string, body: string): Promise<boolean> {
  const latest = await db
    .selectFrom('lead_activities')
    .select(sql<string>`data->>'body'`.as('body'))
    .where('lead_id', '=', leadId)
    .where('kind', '=', 'note')
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return latest?.body === body;
}

const laterOf = (a: Date, b: Date): Date => new Date(Math.max(a.getTime(), b.getTime()));

/** Tags in first-seen order, compared case-insensitively (the first spelling stays). */
export function uniqueTags(existing: readonly string[], added: readonly string[]): string[] {
  const seen = new Set(existing.map((tag) => tag.toLowerCase()));
  const tags = [...existing];
  for (const raw of added) {
    const tag = raw.trim();
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

export function mergeCustomFields(
  existing: Readonly<Record<string, CustomFieldValue>>,
  sent: Readonly<Record<string, CustomFieldValue>>,
): Record<string, CustomFieldValue> {
  const merged: Record<string, CustomFieldValue> = { ...existing };
  for (const [key, value] of Object.entries(sent)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

function checkedTags(tags: string[]): string[] {
  if (tags.length > LEAD_LIMITS.tags) {
    throw AppError.invalid([
      { field: 'tags', problem: `a lead holds at most ${LEAD_LIMITS.tags} tags; with these it would hold ${tags.length}` },
    ]);
  }
  return tags;
}

function checkedCustomFields(fields: Record<string, CustomFieldValue>): Record<string, CustomFieldValue> {
  const count = Object.keys(fields).length;
  if (count > LEAD_LIMITS.customFields) {
    const problem: FieldProblem = {
      field: 'custom_fields',
      problem: `a lead holds at most ${LEAD_LIMITS.customFields} custom fields; with these it would hold ${count}`,
    };
    throw AppError.invalid([problem]);
  }
  return fields;
}

export async function recordLeadActivity(
  db: Kysely<Database>,
  activity: {
    workspaceId: string;
    leadId: string;
    kind: LeadActivityKind;
    videoId?: string | null;
    data: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('lead_activities')
    .values({
      id: randomUUID(),
      workspace_id: activity.workspaceId,
      lead_id: activity.leadId,
      kind: activity.kind,
      video_id: activity.videoId ?? null,
      data: JSON.stringify(activity.data),
      occurred_at: activity.at,
    })
    .execute();
}

/** Past sessions of a browser credited when it is linked: a real browser's history, bounded for a shared one. */
const PAST_SESSIONS_CREDITED = 200;

/**
 * Links a browser (the player's viewer id) to a lead, so its sessions, past and future, join the
 * lead's journey. A new link also credits the lead with the engagement of the browser's past views,
 * each decayed from when it happened, once: later batches are credited as they arrive
 * (viewing-engagement.ts), so the score counts every view of the journey exactly once. Whether the
 * link is new; the caller moves the status (moveStatusOnScore) and sends the one event it owes.
 */
export async function linkViewerToLead(
  db: Kysely<Database>,
  link: { workspaceId: string; viewerId: string; leadId: string; at: Date },
): Promise<boolean> {
  const inserted = await db
    .insertInto('lead_viewers')
    .values({ workspace_id: link.workspaceId, viewer_id: link.viewerId, lead_id: link.leadId, linked_at: link.at })
    .onConflict((conflict) => conflict.doNothing())
    .returning('viewer_id')
    .executeTakeFirst();
  if (!inserted) return false;
  const sessions = await recentViewsOfViewer(db, link.workspaceId, link.viewerId, PAST_SESSIONS_CREDITED);
  let points = 0;
  for (const session of sessions) {
    const earned = sessionPoints({
      newSession: true,
      addedSeconds: session.played_seconds,
      addedShare: Math.min(1, totalLength(session.watched) / session.duration_seconds),
      addedCtaClicks: session.cta_clicks,
      secondsBefore: 0,
    });
    points += decayedPoints({ points: earned, at: session.last_seen_at }, link.at);
  }
  if (points > 0) await addLeadEngagement(db, { leadId: link.leadId, points, at: link.at });
  return true;
}

/**
 * After engagement was added: moves a `new` lead whose score now reaches the threshold to `engaged`
 * (lead-status.ts), with a `status_changed` activity. Whether it moved: the caller says so in the
 * one `lead.*` event it sends (see applyScoreStatus).
 */
export async function moveStatusOnScore(db: Kysely<Database>, workspaceId: string, leadId: string, at: Date): Promise<boolean> {
  const lead = await db
    .selectFrom('leads')
    .select(['status', 'engagement_points', 'engagement_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', leadId)
    .executeTakeFirst();
  if (!lead) return false;
  const next = automaticStatus(lead.status, {
    kind: 'score',
    score: engagementScore({ points: lead.engagement_points, at: lead.engagement_at }, at),
  });
  if (!next) return false;
  await db.updateTable('leads').set({ status: next, updated_at: at }).where('id', '=', leadId).execute();
  await recordLeadActivity(db, {
    workspaceId,
    leadId,
    kind: 'status_changed',
    data: { from: lead.status, to: next, author: AUTOMATIC_AUTHOR },
    at,
  });
  return true;
}

/** moveStatusOnScore, and the `lead.updated` event when the status moved (viewing, which sends no other). */
export async function applyScoreStatus(db: Kysely<Database>, workspaceId: string, leadId: string, at: Date): Promise<void> {
  if (!(await moveStatusOnScore(db, workspaceId, leadId, at))) return;
  await emitLeadChange(outboxEmitter(db, workspaceId, at), {
    leadId,
    created: false,
    changed: ['status'],
    lead: () => leadSnapshot(db, workspaceId, leadId, at),
  });
}

/** Adds engagement points to a lead (locks its row), and moves its last activity forward. */
export async function addLeadEngagement(db: Kysely<Database>, change: { leadId: string; points: number; at: Date }): Promise<void> {
  const lead = await db
    .selectFrom('leads')
    .select(['engagement_points', 'engagement_at', 'last_activity_at'])
    .where('id', '=', change.leadId)
    // The lock the UPDATE below takes anyway; FOR UPDATE would also wait for every transaction that
    // merely wrote a row referring to the lead (an outcome, an activity), and deadlock with it.
    .forNoKeyUpdate()
    .executeTakeFirst();
  if (!lead) return;
  const stored = addEngagement({ points: lead.engagement_points, at: lead.engagement_at }, change.points, change.at);
  await db
    .updateTable('leads')
    .set({ ...stored, last_activity_at: laterOf(change.at, lead.last_activity_at) })
    .where('id', '=', change.leadId)
    .execute();
}

/** The lead as events and get_lead show it (unmasked: the pipeline and the webhook payload mask). */
export async function leadSnapshot(db: Kysely<Database>, workspaceId: string, leadId: string, now: Date): Promise<LeadSnapshot> {
  const row = await db
    .selectFrom('leads as l')
    .leftJoin(videoTitles(db, workspaceId).as('v'), 'v.id', 'l.source_video_id')
    .selectAll('l')
    .select(['v.title as source_video_title'])
    .where('l.workspace_id', '=', workspaceId)
    .where('l.id', '=', leadId)
    .executeTakeFirst();
  if (!row) throw AppError.notFound('lead', leadId);
  return toLeadSnapshot(row, row.source_video_title, now);
}

export function toLeadSnapshot(row: LeadRow, sourceVideoTitle: string | null, now: Date): LeadSnapshot {
  const joined = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    lead_id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    name: row.name ?? (joined || null),
    phone: row.phone,
    status: row.status,
    tags: row.tags,
    source: row.source,
    source_video: row.source_video_id && sourceVideoTitle !== null ? { video_id: row.source_video_id, title: sourceVideoTitle } : null,
    custom_fields: row.custom_fields,
    engagement_score: engagementScore({ points: row.engagement_points, at: row.engagement_at }, now),
    last_activity_at: row.last_activity_at.toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
