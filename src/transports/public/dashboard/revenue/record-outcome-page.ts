/**
 * /app/revenue/new: recording an outcome by hand (record_outcome) for roles with outcomes:write: a
 * purchase, a booked call or a refund (one of a purchase when reached from its "Refund" link), its
 * amount written as people write money ("49.00", turned into the minor units the operation takes),
 * currency, status, the lead (by id from a lead's page, else by email), the video to credit, the day.
 * A refused entry comes back as the form with each problem beside its field and every value kept.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../../http/page-parts.ts';
import { minorUnitDigits } from '../kit/formats.ts';
import { csrfField, type DashboardEnv, dashboardGet, dashboardPost, type PageContext } from '../kit/page-route.ts';
import { type FormProblems, fieldError, formAlert, problemsOf } from '../leads/form-problems.ts';
import type { LeadSnapshot, VideoRef } from '../leads/lead-words.ts';
import { kindLabel, OUTCOME_KINDS, OUTCOME_STATUSES, outcomeStatusLabel } from './outcome-words.ts';

const FIELDS = [
  'kind',
  'amount',
  'currency',
  'status',
  'email',
  'video_id',
  'occurred_on',
  'description',
  'external_id',
  'refunds_outcome_id',
];
/** The operation's names for the fields this form writes under another name. */
const ALIAS = { value: 'amount', lead_id: 'email', occurred_at: 'occurred_on' };

/**
 * "49.00" in USD is 4900; "1,250" is 125000; "500" in JPY is 500. Undefined when it is not an amount
 * of that currency (letters, a minus sign, more decimals than the currency has).
 */
export function minorUnits(text: string, currency: string): number | undefined {
  const cleaned = text.trim().replace(/[,\s]/g, '');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return undefined;
  const digits = minorUnitDigits(currency || 'USD');
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return undefined;
  return Number(match[1]) * 10 ** digits + Number((fraction || '0').padEnd(digits, '0').slice(0, digits) || 0);
}

/** The day picked, as a moment: noon UTC that day, or now for today (an entry may not be in the future). */
function occurredAt(day: string, now: Date): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  return day === now.toISOString().slice(0, 10) ? now.toISOString() : `${day}T12:00:00.000Z`;
}

function options(values: readonly string[], selected: string, words: (v: string) => string): string {
  return values
    .map((v) => `<option value="${escapeHtml(v)}"${v === selected ? ' selected' : ''}>${escapeHtml(words(v))}</option>`)
    .join('');
}

async function renderForm(
  ctx: PageContext,
  values: Record<string, string>,
  problems: FormProblems = {},
  status = 200,
): Promise<FastifyReply> {
  if (!ctx.may('outcomes:write')) {
    return ctx.page(
      'Not allowed',
      '<h1>Not allowed</h1><p class="lede">Your role cannot record outcomes. Ask an owner, admin or member.</p><p><a href="/app/revenue">Back to Revenue</a></p>',
      {
        status: 403,
      },
    );
  }
  const [videos, lead] = await Promise.all([
    ctx.may('videos:read') ? ctx.call<{ videos: VideoRef[] }>('list_videos', { limit: 100 }) : undefined,
    values.lead_id ? ctx.call<LeadSnapshot>('get_lead', { lead_id: values.lead_id }) : undefined,
  ]);
  const field = (name: string, label: string, control: string, hint = '') => {
    const id = `outcome-${name}`;
    return `<div class="field-box"><label for="${id}">${label}</label>${hint ? `<span class="hint" id="${id}-hint">${hint}</span>` : ''}${control}${fieldError(problems, name, id, label)}</div>`;
  };
  const attrs = (name: string, hint = false) => {
    const id = `outcome-${name}`;
    const described = [hint ? `${id}-hint` : '', problems[name]?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
    return `id="${id}" name="${name}"${problems[name]?.length ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}`;
  };
  const refund = Boolean(values.refunds_outcome_id);
  const leadLine = values.lead_id
    ? `<input type="hidden" name="lead_id" value="${escapeHtml(values.lead_id)}"><p class="form-fact"><span class="meta">Lead</span> ${
        lead?.ok
          ? `<a href="/app/leads/${escapeHtml(values.lead_id)}">${escapeHtml(lead.body.name ?? lead.body.email)}</a>`
          : 'the lead you came from'
      }</p>${fieldError(problems, 'email', 'outcome-email', 'Lead')}`
    : field(
        'email',
        'Lead email',
        `<input type="email" ${attrs('email', true)} value="${escapeHtml(values.email ?? '')}" autocomplete="off">`,
        'Optional. An address no lead has yet becomes a new lead.',
      );
  const videoList = videos?.ok ? videos.body.videos : [];
  const form =
    `<form class="fields outcome-form" method="post" action="/app/revenue/new" novalidate>${csrfField(ctx.csrf)}${formAlert(problems)}` +
    (refund
      ? `<input type="hidden" name="refunds_outcome_id" value="${escapeHtml(values.refunds_outcome_id ?? '')}"><input type="hidden" name="kind" value="refund"><p class="form-fact"><span class="meta">Kind</span> Refund of a purchase; its refunds never add up to more than it.</p>${fieldError(
          problems,
          'refunds_outcome_id',
          'outcome-refunds_outcome_id',
          'The purchase',
        )}`
      : field('kind', 'Kind', `<select ${attrs('kind')}>${options(OUTCOME_KINDS, values.kind || 'purchase', kindLabel)}</select>`)) +
    '<div class="field-pair">' +
    field(
      'amount',
      'Amount',
      `<input type="text" inputmode="decimal" ${attrs('amount', true)} value="${escapeHtml(values.amount ?? '')}" required>`,
      'As you write it: 49.00',
    ) +
    field(
      'currency',
      'Currency',
      `<input type="text" ${attrs('currency', true)} value="${escapeHtml(values.currency || 'USD')}" maxlength="3" autocapitalize="characters" spellcheck="false" required>`,
      'ISO code: USD, EUR',
    ) +
    '</div>' +
    field(
      'status',
      'Status',
      `<select ${attrs('status')}>${options(OUTCOME_STATUSES, values.status || 'succeeded', outcomeStatusLabel)}</select>`,
    ) +
    leadLine +
    field(
      'video_id',
      'Credited video',
      `<select ${attrs('video_id', true)}><option value="">No video</option>${options(
        videoList.map((v) => v.video_id),
        values.video_id ?? '',
        (id) => videoList.find((v) => v.video_id === id)?.title ?? id,
      )}</select>`,
      'Optional. First and last touch are worked out from what the lead watched.',
    ) +
    field(
      'occurred_on',
      'Date',
      `<input type="date" ${attrs('occurred_on', true)} value="${escapeHtml(values.occurred_on ?? '')}">`,
      'Optional; today when left empty.',
    ) +
    field(
      'description',
      'Description',
      `<input type="text" ${attrs('description')} value="${escapeHtml(values.description ?? '')}" maxlength="500">`,
    ) +
    field(
      'external_id',
      'Your reference',
      `<input type="text" ${attrs('external_id', true)} value="${escapeHtml(values.external_id ?? '')}" maxlength="255" spellcheck="false">`,
      'Optional: an order number. The same reference is never recorded twice.',
    ) +
    `<div class="buttons"><button type="submit" class="primary">${refund ? 'Record refund' : 'Record outcome'}</button><a class="button" href="/app/revenue">Cancel</a></div></form>`;
  const content =
    '<p class="crumbs"><a href="/app/revenue">Revenue</a> <span aria-hidden="true">/</span></p>' +
    `<h1>${refund ? 'Record a refund' : 'Record an outcome'}</h1><p class="lede">A purchase, booked call or refund made outside Stripe: it enters the ledger, the lead’s journey and the analytics like any other.</p>` +
    `<section class="narrow-form">${form}</section>`;
  return ctx.page(refund ? 'Record a refund' : 'Record an outcome', content, { status });
}

async function record(ctx: PageContext): Promise<FastifyReply> {
  const values = Object.fromEntries(FIELDS.concat('lead_id').map((name) => [name, (ctx.form[name] ?? '').trim()]));
  const currency = values.currency?.toUpperCase() ?? '';
  values.currency = currency;
  const amount = minorUnits(values.amount ?? '', currency);
  const local: FormProblems = {};
  if (values.amount === '') local.amount = ['is required'];
  else if (amount === undefined) local.amount = [`must be a number such as ${minorUnitDigits(currency || 'USD') === 0 ? '500' : '49.00'}`];
  if (values.occurred_on && !occurredAt(values.occurred_on, new Date())) local.occurred_on = ['must be a day (YYYY-MM-DD)'];
  if (Object.keys(local).length > 0) return renderForm(ctx, values, local, 400);
  const input: Record<string, unknown> = { kind: values.kind || 'purchase', amount, currency, status: values.status || 'succeeded' };
  for (const name of ['video_id', 'description', 'external_id', 'refunds_outcome_id', 'lead_id', 'email'] as const) {
    if (values[name]) input[name] = values[name];
  }
  if (values.occurred_on) input.occurred_at = occurredAt(values.occurred_on, new Date());
  const answer = await ctx.call<{ created: boolean; kind: string }>('record_outcome', input);
  if (answer.ok) {
    const done = !answer.body.created ? 'exists' : answer.body.kind === 'refund' ? 'refunded' : 'recorded';
    return ctx.redirect(`/app/revenue?done=${done}`);
  }
  if (answer.status !== 400 && answer.status !== 404 && answer.status !== 409) return ctx.refused(answer);
  return renderForm(ctx, values, problemsOf(answer, FIELDS, ALIAS), answer.status);
}

export function registerRecordOutcome(scope: FastifyInstance, env: DashboardEnv): void {
  dashboardGet(scope, env, '/app/revenue/new', (ctx) =>
    renderForm(ctx, {
      kind: ctx.query.kind ?? '',
      currency: ctx.query.currency ?? '',
      lead_id: ctx.query.lead_id ?? '',
      refunds_outcome_id: ctx.query.refunds_outcome_id ?? '',
    }),
  );
  dashboardPost(scope, env, '/app/revenue/new', record);
}
