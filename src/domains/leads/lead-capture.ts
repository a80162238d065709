/**
 * A viewer filled a video's lead form (POST /leads/capture, and the demo seeder's simulated viewers),
 * or a route's lead form at a step playing that video (POST /r/{route_id}/lead, route-visits.ts).
 * In one transaction: the lead is created, or a known one given the fields it lacks (upsertLeadRecord,
 * source `video`), the browser's viewer id is linked to it, so its sessions before and after join
 * the lead's journey, a `form_submitted` activity is recorded, engagement points are added (the
 * form's, and on the first link those of that browser's earlier views: linkViewerToLead), the
 * video's lead counts grow once per (lead, video), lead.created or lead.updated goes to the outbox,
 * and a `capture_lead` audit event names the lead and the video by id (never the viewer's fields,
 * address or browser).
 */

import { type Kysely, sql, type Transaction } from 'kysely';
import { localDay } from '../../core/calendar/time-zone.ts';
import { AppError, type FieldProblem } from '../../core/errors.ts';
import { transactionRetryingConflicts } from '../../db/conflict-retry.ts';
import { outboxEmitter } from '../../db/outbox.ts';
import type { Database } from '../../db/tables/index.ts';
import { recordAuditEvent } from '../audit/index.ts';
import { findServableVideo } from '../videos/index.ts';
import { countCapturedLead } from '../viewing/index.ts';
import { workspaceFactsTable } from '../workspace/index.ts';
import { ENGAGEMENT_POINTS } from './engagement-score.ts';
import { emitLeadChange } from './lead-change-events.ts';
import { LEAD_FORM_FIELDS, type LeadForm, type LeadFormField, storedLeadForm } from './lead-form.ts';
import {
  addLeadEngagement,
  emailKey,
  type LeadFields,
  leadSnapshot,
  linkViewerToLead,
  moveStatusOnScore,
  recordLeadActivity,
  upsertLeadRecord,
} from './lead-records.queries.ts';

export type CapturedFields = { email: string } & Partial<Record<LeadFormField, string>>;

interface CaptureBase {
  videoId: string;
  viewerId: string;
  fields: CapturedFields;
  at: Date;
}

/**
 * Where the form was sent from: a watch or embed page view, filling the video's own form; or a
 * route visit whose viewer chose the lead form at a step of that video (route-visits.ts), filling
 * the route's form, which the video's setting does not govern.
 */
export type CaptureRequest = CaptureBase &
  (
    | { /** The page view's session (from its viewing token). */ sessionId: string }
    | { route: { routeId: string; visitId: string }; form: LeadForm }
  );

export interface CaptureResult {
  workspaceId: string;
  leadId: string;
  created: boolean;
  /** Whether this capture counted in the video's leads (the first by this lead on this video). */
  counted: boolean;
}

/** Who the lead's history says acted. */
export const CAPTURE_AUTHOR = 'watch page';

export async function captureLead(db: Kysely<Database>, request: CaptureRequest): Promise<CaptureResult> {
  return transactionRetryingConflicts(db, (trx) => captureLeadIn(trx, request));
}

/** The same, inside a transaction the caller holds. Throws (writing nothing) when the form is off or a field is not asked. */
export async function captureLeadIn(trx: Transaction<Database>, request: CaptureRequest): Promise<CaptureResult> {
  const { videoId, viewerId, at } = request;
  const video = await findServableVideo(trx, videoId, (query) =>
    query
      .innerJoin(workspaceFactsTable(trx).as('workspaces'), 'workspaces.id', 'videos.workspace_id')
      .select(['videos.workspace_id', 'videos.lead_form', 'workspaces.timezone']),
  );
  if (!video) throw new AppError('not_found', 'This video is not available.');
  const form = 'route' in request ? request.form : storedLeadForm(video.lead_form);
  if (!form) throw new AppError('forbidden', 'This video does not ask for an email: its lead form is off.');
  const workspaceId = video.workspace_id;
  const asked = askedFields(form, request.fields);
  const fields = await keepingWhatTheLeadHolds(trx, workspaceId, asked);

  const upserted = await upsertLeadRecord(trx, {
    workspaceId,
    fields,
    author: CAPTURE_AUTHOR,
    source: 'video',
    sourceVideoId: videoId,
    at,
  });
  const leadId = upserted.lead.id;
  const changed = [...upserted.changed];

  // A new link credits the browser's viewing so far, which was nobody's, to this lead.
  await linkViewerToLead(trx, { workspaceId, viewerId, leadId, at });

  const counted = !(await trx
    .selectFrom('lead_activities')
    .select('id')
    .where('lead_id', '=', leadId)
    .where('kind', '=', 'form_submitted')
    .where('video_id', '=', videoId)
    .executeTakeFirst());
  await recordLeadActivity(trx, {
    workspaceId,
    leadId,
    kind: 'form_submitted',
    videoId,
    data:
      'route' in request
        ? // A route's form asks what the viewer chooses to give: the fields sent are the ones recorded.
          { route_id: request.route.routeId, visit_id: request.route.visitId, fields: Object.keys(asked) }
        : { session_id: request.sessionId, placement: form.placement, fields: ['email', ...form.fields] },
    at,
  });
  await addLeadEngagement(trx, { leadId, points: ENGAGEMENT_POINTS.formSubmitted, at });
  if (counted) await countCapturedLead(trx, workspaceId, videoId, localDay(at, video.timezone), at);

  if (await moveStatusOnScore(trx, workspaceId, leadId, at)) changed.push('status');
  const lead = await leadSnapshot(trx, workspaceId, leadId, at);
  await emitLeadChange(outboxEmitter(trx, workspaceId, at), { leadId, created: upserted.created, changed, lead });
  await recordAuditEvent(trx, {
    workspaceId,
    at,
    actor: { kind: 'system', id: null, name: 'route' in request ? 'Route lead form' : 'Lead form' },
    action: 'capture_lead',
    object: { kind: 'lead', id: leadId },
    // A public page: the viewer's address and browser are personal data, so none is kept.
    origin: { transport: 'public' },
    details: { video_id: videoId, ...('route' in request ? { route_id: request.route.routeId } : {}), created: upserted.created },
  });
  return { workspaceId, leadId, created: upserted.created, counted };
}

/** The sent fields, trimmed, when the form asks them all; a field it does not ask is a problem. */
function askedFields(form: LeadForm, sent: CapturedFields): LeadFields {
  const problems: FieldProblem[] = [];
  const fields: LeadFields = { email: sent.email.trim() };
  for (const [name, value] of Object.entries(sent)) {
    if (name === 'email' || value === undefined) continue;
    if (!form.fields.includes(name as LeadFormField)) problems.push({ field: name, problem: 'this video’s form does not ask for it' });
    else fields[name as LeadFormField] = value.trim();
  }
  if (problems.length > 0) throw AppError.invalid(problems);
  return fields;
}

/**
 * What an anonymous form may write to the lead with that email: the fields it does not hold yet,
 * and never a new spelling of its email. Anyone can type anyone's address into a public form, so a
 * submission enriches a known lead but cannot rename it or change the phone the workspace has;
 * upsert_lead, which needs a credential, overwrites.
 */
async function keepingWhatTheLeadHolds(trx: Transaction<Database>, workspaceId: string, sent: LeadFields): Promise<LeadFields> {
  const existing = await trx
    .selectFrom('leads')
    .select(['email', ...LEAD_FORM_FIELDS])
    .where('workspace_id', '=', workspaceId)
    .where(sql<string>`lower(email)`, '=', emailKey(sent.email))
    .executeTakeFirst();
  if (!existing) return sent;
  const fields: LeadFields = { email: existing.email };
  for (const name of LEAD_FORM_FIELDS) {
    if (sent[name] !== undefined && existing[name] === null) fields[name] = sent[name];
  }
  return fields;
}
