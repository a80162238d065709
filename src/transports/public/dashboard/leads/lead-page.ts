/**
 * /app/leads/{lead_id}: one lead, as get_lead, get_lead_journey and list_outcomes (filtered by the
 * lead) answer it, masked while the workspace masks. Its journey is drawn as a timeline across
 * videos; notes are listed and added; status and tags are edited (update_lead); its outcomes and
 * bookings are listed. Owners and admins also have "Reveal" (reveal_lead, recorded in the audit log)
 * and "Delete lead" (erase_lead: the person is erased, their revenue stays in the ledger with no name).
 * Four calls, in parallel, one per part of the page. The forms are in lead-forms.ts.
 */
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { confirmControl } from '../kit/confirm-dialog.ts';
import { formatDate, formatDateTime, formatMoney } from '../kit/formats.ts';
import { csrfField, type PageContext } from '../kit/page-route.ts';
import { kindLabel, type OutcomeList, outcomeStatusPill, signedAmount } from '../revenue/outcome-words.ts';
import { type FormProblems, fieldError, formAlert, invalidAttributes } from './form-problems.ts';
import { journeyChart } from './journey-chart.ts';
import { type Journey, type JourneyEntry, journeySummary, journeyTimeline } from './lead-journey.ts';
import { LEAD_STATUSES, type LeadSnapshot, sourceLabel, statusLabel, statusPill, type WorkspaceView } from './lead-words.ts';

export interface Revealed {
  email: string;
  name: string | null;
  phone: string | null;
}

/** What a refused form brings back to the page: which form, its problems, the values sent. */
export interface FormState {
  form: 'notes' | 'edit';
  problems: FormProblems;
  values: Record<string, string>;
}

const DONE: Record<string, string> = {
  note: 'Note added.',
  saved: 'Status and tags saved.',
};

/** The page, with the contact fields revealed when `revealed` is given, or a refused form's problems. */
export async function renderLead(
  ctx: PageContext,
  leadId: string,
  state: { revealed?: Revealed; form?: FormState; status?: number } = {},
): Promise<FastifyReply> {
  const [leadAnswer, journeyAnswer, outcomesAnswer, workspaceAnswer] = await Promise.all([
    ctx.call<LeadSnapshot>('get_lead', { lead_id: leadId }),
    ctx.call<Journey>('get_lead_journey', { lead_id: leadId }),
    ctx.may('outcomes:read') ? ctx.call<OutcomeList>('list_outcomes', { lead_id: leadId, limit: 20 }) : undefined,
    ctx.call<WorkspaceView>('get_workspace', {}),
  ]);
  if (!leadAnswer.ok) {
    if (leadAnswer.status === 404 || leadAnswer.status === 400) return ctx.notFound('No such lead', 'It may have been deleted.');
    return ctx.refused(leadAnswer);
  }
  const lead = leadAnswer.body;
  const timeZone = workspaceAnswer.ok ? workspaceAnswer.body.settings.timezone : 'UTC';
  const journey = journeyAnswer.ok ? journeyAnswer.body : null;
  const revealed = state.revealed;
  const shown = revealed ?? lead;
  const masked = ctx.principal.maskPii && !revealed;
  const title = shown.name ?? shown.email;
  const done = DONE[ctx.query.done ?? ''];
  const writable = ctx.may('leads:write');

  const actions = [
    ctx.manager && masked
      ? `<form class="inline" method="post" action="/app/leads/${escapeHtml(lead.lead_id)}/reveal">${csrfField(ctx.csrf)}<button type="submit">Reveal</button></form>`
      : '',
    ctx.may('outcomes:write') ? `<a class="button" href="/app/revenue/new?lead_id=${escapeHtml(lead.lead_id)}">Record an outcome</a>` : '',
    ctx.manager
      ? confirmControl({
          label: 'Delete lead',
          page: `/app/leads/${lead.lead_id}`,
          action: `/app/leads/${lead.lead_id}/delete`,
          heading: 'Delete this lead?',
          consequence:
            'Everything that names this person is erased: their details, notes, journey, form submissions and booking details. Their purchases stay in revenue with no name. This cannot be undone.',
          csrf: ctx.csrf,
          open: ctx.query.confirm === '1',
        })
      : '',
  ].join('');

  const content =
    `<p class="crumbs"><a href="/app/leads">Leads</a> <span aria-hidden="true">/</span></p>` +
    (done ? `<p class="notice" role="status">${escapeHtml(done)}</p>` : '') +
    `<div class="title-row lead-title"><div><h1>${escapeHtml(title)}</h1>` +
    `<p class="lead-sub">${statusPill(lead.status)}<span>Engagement ${lead.engagement_score} of 100</span><span>Captured ${escapeHtml(
      formatDate(lead.created_at, timeZone),
    )}</span></p></div>` +
    `<div class="actions">${actions}</div></div>` +
    (masked
      ? '<p class="lede">Personal data is masked in this workspace.</p>'
      : revealed
        ? '<p class="lede">Shown unmasked for you; this reveal is in the audit log.</p>'
        : '') +
    '<div class="lead-layout"><div class="lead-main">' +
    journeySection(ctx, lead, journey, timeZone) +
    notesSection(ctx, lead, journey, timeZone, writable, state.form) +
    '</div><div class="lead-side">' +
    detailsSection(lead, shown, timeZone) +
    (writable ? editSection(ctx, lead, state.form) : '') +
    (outcomesAnswer ? outcomesSection(lead, outcomesAnswer.ok ? outcomesAnswer.body : null, timeZone) : '') +
    bookingsSection(journey, timeZone) +
    '</div></div>';
  return ctx.page(title, content, { status: state.status ?? 200 });
}

function journeySection(ctx: PageContext, lead: LeadSnapshot, journey: Journey | null, timeZone: string): string {
  const body = journey
    ? journeySummary(journey, timeZone) +
      journeyChart(journey, timeZone) +
      journeyTimeline(journey, timeZone, {
        all: ctx.query.journey === 'all',
        moreHref: `/app/leads/${lead.lead_id}?journey=all#journey-heading`,
      })
    : '<p class="empty">The journey could not be read just now.</p>';
  return `<section class="lead-journey" aria-labelledby="journey-heading"><h2 id="journey-heading">Journey</h2>${body}</section>`;
}

function notesSection(
  ctx: PageContext,
  lead: LeadSnapshot,
  journey: Journey | null,
  timeZone: string,
  writable: boolean,
  form?: FormState,
): string {
  const notes = (journey?.entries ?? [])
    .filter((e): e is JourneyEntry & { note: { body: string; author: string } } => e.kind === 'note' && !!e.note)
    .reverse();
  const problems = form?.form === 'notes' ? form.problems : {};
  const value = form?.form === 'notes' ? (form.values.notes ?? '') : '';
  const add = writable
    ? `<form class="fields note-form" method="post" action="/app/leads/${escapeHtml(lead.lead_id)}/notes">${csrfField(ctx.csrf)}${formAlert(problems)}` +
      `<div class="field-box"><label for="lead-note">Note</label><textarea id="lead-note" name="notes" rows="3" maxlength="5000" required${invalidAttributes(problems, 'notes', 'lead-note')}>${escapeHtml(value)}</textarea>` +
      `${fieldError(problems, 'notes', 'lead-note', 'The note')}</div><button type="submit" class="primary">Add note</button></form>`
    : '';
  const list = notes.length
    ? `<ul class="notes">${notes
        .map(
          (n) =>
            `<li><p class="note-body">${escapeHtml(n.note.body)}</p><p class="meta">${escapeHtml(n.note.author)} · <time datetime="${escapeHtml(n.at)}">${escapeHtml(
              formatDateTime(n.at, timeZone),
            )}</time></p></li>`,
        )
        .join('')}</ul>`
    : '<p class="empty">No notes yet.</p>';
  return `<section class="lead-notes" aria-labelledby="notes-heading"><h2 id="notes-heading">Notes</h2>${add}${list}</section>`;
}

function detailsSection(lead: LeadSnapshot, shown: { email: string; name: string | null; phone: string | null }, timeZone: string): string {
  const custom = Object.entries(lead.custom_fields ?? {});
  const rows: [string, string][] = [
    ['Email', escapeHtml(shown.email)],
    ['Name', escapeHtml(shown.name ?? '—')],
    ['Phone', escapeHtml(shown.phone ?? '—')],
    ['Status', escapeHtml(statusLabel(lead.status))],
    [
      'Source',
      lead.source_video
        ? `${escapeHtml(sourceLabel(lead.source))}: <a href="/app/videos/${escapeHtml(lead.source_video.video_id)}">${escapeHtml(lead.source_video.title)}</a>`
        : escapeHtml(sourceLabel(lead.source)),
    ],
    ['Tags', lead.tags.length ? `<ul class="tag-list">${lead.tags.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>` : '—'],
    ['Captured', escapeHtml(formatDateTime(lead.created_at, timeZone))],
    ['Last activity', escapeHtml(formatDateTime(lead.last_activity_at, timeZone))],
    ...custom.map(([key, value]): [string, string] => [escapeHtml(key), escapeHtml(value === null ? '—' : String(value))]),
  ];
  return `<section class="lead-details" aria-labelledby="details-heading"><h2 id="details-heading">Details</h2><dl>${rows
    .map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`)
    .join('')}</dl></section>`;
}

function editSection(ctx: PageContext, lead: LeadSnapshot, form?: FormState): string {
  const problems = form?.form === 'edit' ? form.problems : {};
  const status = form?.form === 'edit' ? (form.values.status ?? lead.status) : lead.status;
  const tags = form?.form === 'edit' ? (form.values.tags ?? '') : lead.tags.join(', ');
  return (
    `<section class="lead-edit" aria-labelledby="edit-heading"><h2 id="edit-heading">Status and tags</h2>` +
    `<form class="fields" method="post" action="/app/leads/${escapeHtml(lead.lead_id)}/edit">${csrfField(ctx.csrf)}${formAlert(problems)}` +
    `<div class="field-box"><label for="lead-status">Status</label><select id="lead-status" name="status"${invalidAttributes(problems, 'status', 'lead-status')}>${LEAD_STATUSES.map(
      (s) => `<option value="${s}"${s === status ? ' selected' : ''}>${statusLabel(s)}</option>`,
    ).join('')}</select>${fieldError(problems, 'status', 'lead-status', 'Status')}</div>` +
    `<div class="field-box"><label for="lead-tags">Tags</label><span class="hint" id="lead-tags-hint">Separated by commas; this list replaces the lead’s tags.</span>` +
    `<input id="lead-tags" type="text" name="tags" value="${escapeHtml(tags)}" aria-describedby="lead-tags-hint${problems.tags?.length ? ' lead-tags-error' : ''}"${
      problems.tags?.length ? ' aria-invalid="true"' : ''
    }>${fieldError(problems, 'tags', 'lead-tags', 'Tags')}</div>` +
    '<button type="submit" class="primary">Save</button></form></section>'
  );
}

function outcomesSection(lead: LeadSnapshot, list: OutcomeList | null, timeZone: string): string {
  if (!list)
    return '<section aria-labelledby="outcomes-heading"><h2 id="outcomes-heading">Outcomes</h2><p class="empty">The ledger could not be read just now.</p></section>';
  const totals = list.totals.by_currency
    .map(
      (t) =>
        `<li><span class="meta">Net ${escapeHtml(t.currency)}</span> <strong>${escapeHtml(formatMoney(t.net, t.currency))}</strong></li>`,
    )
    .join('');
  const rows = list.outcomes
    .map(
      (o) =>
        `<li><div><strong>${escapeHtml(kindLabel(o.kind))}</strong> ${outcomeStatusPill(o.status)}<p class="meta"><time datetime="${escapeHtml(o.occurred_at)}">${escapeHtml(
          formatDate(o.occurred_at, timeZone),
        )}</time>${o.last_touch_video ? ` · last touch ${escapeHtml(o.last_touch_video.title)}` : ''}</p></div><span class="amount">${escapeHtml(signedAmount(o))}</span></li>`,
    )
    .join('');
  const more =
    list.pagination.total > list.outcomes.length || list.outcomes.length > 0
      ? `<p><a href="/app/revenue?lead_id=${escapeHtml(lead.lead_id)}">See ${list.pagination.total === 1 ? 'it' : `all ${list.pagination.total}`} in Revenue</a></p>`
      : '';
  return (
    '<section class="lead-outcomes" aria-labelledby="outcomes-heading"><h2 id="outcomes-heading">Outcomes</h2>' +
    (list.outcomes.length
      ? `${totals ? `<ul class="currency-totals">${totals}</ul>` : ''}<ul class="rows outcome-rows">${rows}</ul>${more}`
      : '<p class="empty">No purchases, calls or refunds yet.</p>') +
    '</section>'
  );
}

/** Bookings from the journey's booking steps: each booking as it stands after its latest step. */
function bookingsSection(journey: Journey | null, timeZone: string): string {
  const latest = new Map<string, JourneyEntry>();
  for (const entry of journey?.entries ?? []) {
    const id = entry.kind === 'booking' ? entry.details?.booking_id : undefined;
    if (typeof id === 'string') latest.set(id, entry);
  }
  const items = [...latest.values()].reverse();
  const body = items.length
    ? `<ul class="rows">${items
        .map((entry) => {
          const d = entry.details ?? {};
          const action = String(d.action ?? 'booked');
          const start = typeof d.start === 'string' ? d.start : '';
          const when = start ? formatDateTime(start, timeZone) : '';
          return `<li><div><strong>${escapeHtml(String(d.event_type ?? 'Call'))}</strong><p class="meta">${escapeHtml(when)}</p></div><span class="status ${
            action === 'canceled' ? 'failed' : 'succeeded'
          }">${action === 'canceled' ? 'Canceled' : action === 'rescheduled' ? 'Rescheduled' : 'Booked'}</span></li>`;
        })
        .join('')}</ul>`
    : '<p class="empty">No calls booked.</p>';
  return `<section class="lead-bookings" aria-labelledby="bookings-heading"><h2 id="bookings-heading">Bookings</h2>${body}</section>`;
}
